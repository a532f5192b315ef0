; profile x86_64, 8-byte words, 15 atoms, 16 cells
; source loops.syslet

syslet main(int n):
    0  r = read(0, buf, 64)                 stop-on-non-positive|skip   next=2 stop=1     ; 7: while ((r = read(0, buf, sizeof(buf))) > 0)
    1  i = umem_add(&0, 0)                  -                           next=3            ; 9: i = 0 [arith]
    2  write(1, buf, r)                     -                           next=0            ; 8: write(1, buf, r);
    3  %8 = umem_add(&i, 0)                 stop-on-non-positive|skip   next=5 stop=4     ; 9: for (i = 0; i < 3; i++) [copy]
    4  getppid()                            -                           next=6            ; 9 [trampoline]
    5  umem_add(&%8, -3)                    stop-on-negative|skip       next=7 stop=6     ; 9: for (i = 0; i < 3; i++) [test]
    6  write(1, "x", 1)                     -                           next=14           ; 10: write(1, "x", 1);
    7  r = read(0, buf, 64)                 stop-on-negative|skip       next=9 stop=8     ; 12: r = read(0, buf, sizeof(buf));
    8  umem_add(&n, -1)                     stop-on-negative            next=13 stop=end  ; 20: if (--n < 0) [arith]
    9  umem_add(&r, 0)                      stop-on-zero|skip           next=12 stop=10   ; 15: if (r == 0) [test]
   10  umem_add(&r, 0)                      stop-on-non-positive|skip   next=7 stop=11    ; 18: while (r > 0); [test]
   11  getppid()                            -                           next=8            ; 18 [trampoline]
   12  write(1, buf, r)                     -                           next=10           ; 17: write(1, buf, r);
   13  getpid()                             -                           next=8            ; 22: getpid();
   14  umem_add(&i, 1)                      -                           next=3            ; 9: i++ [arith]

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
