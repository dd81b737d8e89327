function msg = vm_march_retry_message (kind, msg, order, next, where)
  % msg = vm_march_retry_message (kind, msg, order, next, where): the message of a march that
  % stalled at order (where: vm_march_stall's 't = .. (what stalled)') after the remedy of trying
  % the next higher order next.  kind 'advice': the order was given, so the stalled run's msg with
  % the higher order named; 'solved': the retry's msg led by what failed and the order to pass;
  % 'failed': the retry's msg inside a sentence that names both orders.  Why one place: skg_solve
  % and dual_solve give the same advice in the same words (tests/octave/test_messages.m).
  switch (kind)
    case 'advice'
      msg = sprintf (['%s. The next higher order, ''Order'', %d, takes longer windows at ' ...
                      'the same tolerance'], msg, next);
    case 'solved'
      msg = sprintf (['the default Order %d stalled at %s; solved with ''Order'', %d: ' ...
                      'pass it to skip the failed attempt. %s'], order, where, next, msg);
    case 'failed'
      msg = sprintf (['the march stalled at both orders tried: with ''Order'', %d %s; with ' ...
                      'the default Order %d at %s'], next, msg, order, where);
    otherwise
      error ('vm_march_retry_message: unknown kind ''%s''', kind);
  end
end
