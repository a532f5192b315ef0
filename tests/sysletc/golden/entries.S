; profile x86_64, 8-byte words, 4 atoms, 8 cells
; source entries.syslet

syslet first(int n, str path):
    0  count = umem_add(&n, 0)              -                           next=1            ; 5: count = n; [arith]
    1  write(1, path, 1)                    -                           next=end          ; 6: write(1, path, 1);

syslet second(str a):
    2  umem_add(&count, 1)                  -                           next=3            ; 10: count++; [arith]
    3  write(1, a, 1)                       -                           next=end          ; 11: write(1, a, 1);

cells:
    0  count                    var = 0
    1  first.n                  param 0 of first, int
    2  first.path               param 1 of first, str
    3  second.a                 param 0 of second, str
    4  &first.n                 address
    5  0                        constant
    6  1                        constant
    7  &count                   address
