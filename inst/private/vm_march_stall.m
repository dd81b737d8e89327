function [where, next] = vm_march_stall (msg, order)
  % [where, next] = vm_march_stall (msg, order): for the message msg of an adaptive march
  % (csrc/march/march_adaptive.c) that stalled -- its window length fell below the floor, or the
  % rest of the interval needed more windows than MaxWindows allows -- where = 't = .. (what
  % stalled)', else ''; next: the next higher SBP order after order (vm_sbp_mex ('orders')), []
  % at the highest.  Why: a stall at a tight tolerance is the order's error constant, which the
  % next order's longer windows (error O(L^(p+2)) per window) overcome; skg_solve and dual_solve
  % try it, or name it.
  where = '';
  orders = vm_sbp_mex ('orders');
  next = min (orders(orders > order));
  t = regexp (msg, '^stopped (?:early )?at t = ([^: ]+)', 'tokens', 'once');
  if (isempty (t))
    return;
  end
  L = regexp (msg, '^stopped at t = [^:]+: the window length fell to ([^,]+),', 'tokens', 'once');
  if (~isempty (L))
    where = sprintf ('t = %s (the window length fell to %s)', t{1}, L{1});
  elseif (~isempty (regexp (msg, 'MaxWindows', 'once')))
    where = sprintf ('t = %s (the rest of the interval needed more windows than MaxWindows allows)', ...
                     t{1});
  end
end
