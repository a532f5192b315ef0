; profile i386-2007, 4-byte words, 2 atoms, 5 cells
; source i386-2007.syslet

syslet main():
    0  umem_add(&n, 1)                      -                           next=1            ; 6: n++; [arith]
    1  write(1, "four", 4)                  -                           next=end          ; 7: write(1, "four", sizeof(n));

cells:
    0  n                        var = 0
    1  &n                       address
    2  1                        constant
    3  "four"                   address
    4  4                        constant
