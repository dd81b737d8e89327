#!/usr/bin/env python3
"""shape_metrics.py [DIR ...] -- the shape of the C sources: functions with more than 8 parameters
and files over 800 lines.  Usage: python3 tools/shape_metrics.py csrc mex
Counts function definitions (a parameter list followed by '{' at file scope); prints each offender
and the totals.  Why: issue 42 sets both targets, and a number anyone can reproduce beats a reading."""
import os, re, sys

DEF = re.compile(r'^(?:[A-Za-z_][\w \*]*?[ \*])?([A-Za-z_]\w*)\s*\(([^;{}()]*(?:\([^()]*\)[^;{}()]*)*)\)\s*\{', re.M | re.S)

def strip_comments(s):
    s = re.sub(r'/\*.*?\*/', lambda m: '\n' * m.group(0).count('\n'), s, flags=re.S)
    return re.sub(r'//[^\n]*', '', s)

def main(dirs):
    wide, big = [], []
    for d in dirs:
        for root, _, files in os.walk(d):
            for f in sorted(files):
                if not f.endswith(('.c', '.h')):
                    continue
                p = os.path.join(root, f)
                text = open(p, encoding='utf-8', errors='replace').read()
                n = text.count('\n')
                if n > 800:
                    big.append((n, p))
                for m in DEF.finditer(strip_comments(text)):
                    name, args = m.group(1), m.group(2).strip()
                    if name in ('if', 'for', 'while', 'switch', 'return', 'sizeof'):
                        continue
                    if args in ('', 'void'):
                        continue
                    k = args.count(',') + 1 - len(re.findall(r'\([^()]*,[^()]*\)', args))
                    if k > 8:
                        wide.append((k, name, p))
    for k, name, p in sorted(wide, reverse=True):
        print('params %2d  %s  %s' % (k, name, p))
    for n, p in sorted(big, reverse=True):
        print('lines %5d  %s' % (n, p))
    print('functions with more than 8 parameters: %d' % len(wide))
    print('files over 800 lines: %d' % len(big))

if __name__ == '__main__':
    main(sys.argv[1:] or ['csrc', 'mex'])
