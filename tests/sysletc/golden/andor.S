; profile x86_64, 8-byte words, 15 atoms, 13 cells
; source andor.syslet

syslet main():
    0  umem_add(&a, 0)                      stop-on-non-positive|skip   next=3 stop=1     ; 5: if (a > 0 && b > 0) [test]
    1  umem_add(&a, 0)                      stop-on-negative|skip       next=6 stop=2     ; 7: if (a < 0 || getpid() == 0) [test]
    2  write(1, "either\n", 7)              -                           next=8            ; 8: write(1, "either\n", 7);
    3  umem_add(&b, 0)                      stop-on-non-positive|skip   next=5 stop=4     ; 5: if (a > 0 && b > 0) [test]
    4  getppid()                            -                           next=1            ; 5 [trampoline]
    5  write(1, "both\n", 5)                -                           next=1            ; 6: write(1, "both\n", 5);
    6  getpid()                             stop-on-zero|skip           next=8 stop=7     ; 7: if (a < 0 || getpid() == 0)
    7  getppid()                            -                           next=2            ; 7 [trampoline]
    8  umem_add(&a, 0)                      stop-on-negative|skip       next=10 stop=9    ; 9: if (a < 0 || b < 0 || getppid() < 0) [test]
    9  write(1, "any\n", 4)                 -                           next=end          ; 10: write(1, "any\n", 4);
   10  umem_add(&b, 0)                      stop-on-negative|skip       next=12 stop=11   ; 9: if (a < 0 || b < 0 || getppid() < 0) [test]
   11  getppid()                            -                           next=9            ; 9 [trampoline]
   12  getppid()                            stop-on-negative|skip       next=14 stop=13   ; 9: if (a < 0 || b < 0 || getppid() < 0)
   13  getppid()                            -                           next=9            ; 9 [trampoline]
   14  write(1, "none\n", 5)                -                           next=end          ; 12: write(1, "none\n", 5);

cells:
    0  a                        var = 0
    1  b                        var = 0
    2  &a                       address
    3  0                        constant
    4  &b                       address
    5  1                        constant
    6  "both\n"                 address
    7  5                        constant
    8  "none\n"                 address
    9  "any\n"                  address
   10  4                        constant
   11  "either\n"               address
   12  7                        constant
