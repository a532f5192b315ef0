; profile x86_64, 8-byte words, 14 atoms, 16 cells
; source loops.syslet

syslet main(int n):
    0  r = read(0, buf, 64)                 stop-on-non-positive|skip   next=2 stop=1     ; 7: while ((r = read(0, buf, sizeof(buf))) > 0)
    1  i = umem_add(&0, 0)                  -                           next=3            ; 9: i = 0 [arith]
    2  write(1, buf, r)                     -                           next=0            ; 8: write(1, buf, r);
    3  %8 = umem_add(&i, 0)                 -                           next=4            ; 9: for (i = 0; i < 3; i++) [copy]
    4  umem_add(&%8, -3)                    stop-on-negative|skip       next=6 stop=5     ; 9: for (i = 0; i < 3; i++) [test]
    5  write(1, "x", 1)                     -                           next=13           ; 10: write(1, "x", 1);
    6  r = read(0, buf, 64)                 stop-on-negative|skip       next=8 stop=7     ; 12: r = read(0, buf, sizeof(buf));
    7  umem_add(&n, -1)                     stop-on-negative            next=12 stop=end  ; 20: if (--n < 0) [arith]
    8  umem_add(&r, 0)                      stop-on-zero|skip           next=11 stop=9    ; 15: if (r == 0) [test]
    9  umem_add(&r, 0)                      stop-on-non-positive|skip   next=6 stop=10    ; 18: while (r > 0); [test]
   10  getppid()                            -                           next=7            ; 18 [trampoline]
   11  write(1, buf, r)                     -                           next=9            ; 17: write(1, buf, r);
   12  getpid()                             -                           next=7            ; 22: getpid();
   13  umem_add(&i, 1)                      -                           next=3            ; 9: i++ [arith]

cells:
    0  main.n                   param 0 of main, int
    1  main.i                   var = 0
    2  main.r                   var = 0
    3  0                        constant
    4  buf                      address
    5  64                       constant
    6  1                        constant
    7  &0                       address
    8  %8                       scratch = 0
    9  &main.i                  address
   10  &%8                      address
   11  -3                       constant
   12  &main.r                  address
   13  &main.n                  address
   14  -1                       constant
   15  "x"                      address
objects:
       buf                      buffer, 64 bytes
