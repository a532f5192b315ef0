; profile x86_64, 8-byte words, 23 atoms, 7 cells
; source compare.syslet

syslet main():
    0  umem_add(&x, 0)                      stop-on-negative|skip       next=2 stop=1     ; 5: if (x < 0) [test]
    1  getpid()                             -                           next=2            ; 5: getpid();
    2  umem_add(&x, 0)                      stop-on-non-positive|skip   next=4 stop=3     ; 6: if (x <= 0) [test]
    3  getpid()                             -                           next=4            ; 6: getpid();
    4  umem_add(&x, 0)                      stop-on-zero|skip           next=6 stop=5     ; 7: if (x == 0) [test]
    5  getpid()                             -                           next=6            ; 7: getpid();
    6  umem_add(&x, 0)                      stop-on-nonzero|skip        next=8 stop=7     ; 8: if (x != 0) [test]
    7  getpid()                             -                           next=8            ; 8: getpid();
    8  umem_add(&x, 0)                      stop-on-non-positive|skip   next=12 stop=9    ; 9: if (x > 0) [test]
    9  umem_add(&x, 0)                      stop-on-negative|skip       next=13 stop=10   ; 10: if (x >= 0) [test]
   10  umem_add(&x, 0)                      stop-on-nonzero|skip        next=14 stop=11   ; 11: if (x) [test]
   11  getpid()                             -                           next=14           ; 11: getpid();
   12  getpid()                             -                           next=9            ; 9: getpid();
   13  getpid()                             -                           next=10           ; 10: getpid();
   14  umem_add(&x, 0)                      stop-on-nonzero|skip        next=17 stop=15   ; 12: if (!x) [test]
   15  %3 = umem_add(&x, 0)                 stop-on-non-positive|skip   next=18 stop=16   ; 13: if (x > 5) [copy]
   16  getppid()                            -                           next=19           ; 13 [trampoline]
   17  getpid()                             -                           next=15           ; 12: getpid();
   18  umem_add(&%3, -5)                    stop-on-non-positive|skip   next=20 stop=19   ; 13: if (x > 5) [test]
   19  %3 = getppid()                       -                           next=21           ; 14: if (getppid() == 1)
   20  getpid()                             -                           next=19           ; 13: getpid();
   21  umem_add(&%3, -1)                    stop-on-zero|skip           next=end stop=22  ; 14: if (getppid() == 1) [test]
   22  getpid()                             -                           next=end          ; 14: getpid();

cells:
    0  x                        var = 10
    1  &x                       address
    2  0                        constant
    3  %3                       scratch = 0
    4  &%3                      address
    5  -5                       constant
    6  -1                       constant
