; profile x86_64, 8-byte words, 9 atoms, 11 cells
; source arith.syslet

syslet main():
    0  umem_add(&x, 5)                      -                           next=1            ; 5: x += 5; [arith]
    1  umem_add(&x, y)                      -                           next=2            ; 6: x += y; [arith]
    2  umem_add(&x, -2)                     -                           next=3            ; 7: x -= 2; [arith]
    3  umem_add(&x, 1)                      -                           next=4            ; 8: x++; [arith]
    4  umem_add(&x, -1)                     -                           next=5            ; 9: x--; [arith]
    5  x = umem_add(&7, 0)                  -                           next=6            ; 10: x = 7; [arith]
    6  x = umem_add(&y, 0)                  -                           next=7            ; 11: x = y; [arith]
    7  x = umem_add(&y, 0)                  -                           next=8            ; 12: x = y + 1; [arith]
    8  umem_add(&x, 1)                      -                           next=end          ; 12: x = y + 1; [arith]

cells:
    0  x                        var = 0
    1  y                        var = 3
    2  &x                       address
    3  5                        constant
    4  -2                       constant
    5  1                        constant
    6  -1                       constant
    7  7                        constant
    8  &7                       address
    9  0                        constant
   10  &y                       address
