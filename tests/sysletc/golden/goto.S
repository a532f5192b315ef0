; profile x86_64, 8-byte words, 2 atoms, 6 cells
; source goto.syslet

syslet main():
again:
    0  write(1, "a\n", 2)                   async                       next=1            ; 5: write(1, "a\n", 2);
    1  umem_add(&n, -1)                     sync|no-complete|stop-on-non-positive next=0 stop=end ; 6: n--; [arith]

cells:
    0  main.n                   var = 3
    1  1                        constant
    2  "a\n"                    address
    3  2                        constant
    4  &main.n                  address
    5  -1                       constant
