; profile x86_64, 8-byte words, 21 atoms, 23 cells
; source names.syslet

syslet main(str path):
    0  fd = open(path, O_RDONLY)            -                           next=1            ; 7: fd = open(path, O_RDONLY);
    1  fd = open(path, O_WRONLY|O_CREAT|O_TRUNC|O_CLOEXEC, 0644) -      next=2            ; 8: fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    2  fd = open(path, O_WRONLY|O_CREAT)    -                           next=3            ; 9: fd = open(path, 0101);
    3  fd = openat(AT_FDCWD, path, O_RDWR|O_SYNC|0x40000000) -          next=4            ; 10: fd = openat(AT_FDCWD, path, O_RDWR | O_SYNC | 0x40000000);
    4  s = socket(AF_INET, SOCK_STREAM|SOCK_NONBLOCK, IPPROTO_IP) -     next=5            ; 11: s = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
    5  s = socket(AF_UNIX, SOCK_DGRAM, 0)   -                           next=6            ; 12: s = socket(AF_UNIX, SOCK_DGRAM, 0);
    6  setsockopt(s, SOL_SOCKET, SO_REUSEADDR, st, 4) -                 next=7            ; 13: setsockopt(s, SOL_SOCKET, SO_REUSEADDR, st, 4);
    7  setsockopt(s, SOL_TCP, TCP_NODELAY, st, 4) -                     next=8            ; 14: setsockopt(s, IPPROTO_TCP, TCP_NODELAY, st, 4);
    8  setsockopt(s, 99, 1, st, 4)          -                           next=9            ; 15: setsockopt(s, 99, 1, st, 4);
    9  accept4(s, NULL, NULL, SOCK_CLOEXEC) -                           next=10           ; 16: accept4(s, 0, 0, SOCK_CLOEXEC);
   10  lseek(fd, 0, SEEK_END)               -                           next=11           ; 17: lseek(fd, 0, SEEK_END);
   11  access(path, F_OK)                   -                           next=12           ; 18: access(path, F_OK);
   12  access(path, R_OK|W_OK)              -                           next=13           ; 19: access(path, R_OK | W_OK);
   13  kill(0, SIGTERM)                     -                           next=14           ; 20: kill(0, SIGTERM);
   14  mkdir(path, 0700)                    -                           next=15           ; 21: mkdir(path, S_IRWXU);
   15  unlinkat(AT_FDCWD, path, AT_REMOVEDIR) -                         next=16           ; 22: unlinkat(AT_FDCWD, path, AT_REMOVEDIR);
   16  mprotect(st, 4096, PROT_READ|PROT_WRITE) -                       next=17           ; 23: mprotect(st, 4096, PROT_READ | PROT_WRITE);
   17  fcntl(fd, F_SETFL, O_NONBLOCK)       -                           next=18           ; 24: fcntl(fd, F_SETFL, O_NONBLOCK);
   18  shutdown(s, SHUT_WR)                 -                           next=19           ; 25: shutdown(s, SHUT_WR);
   19  clock_gettime(CLOCK_MONOTONIC, st)   -                           next=20           ; 26: clock_gettime(CLOCK_MONOTONIC, st);
   20  write(1, st, 3)                      -                           next=end          ; 27: write(1, st, 3);

cells:
    0  main.path                param 0 of main, str
    1  main.fd                  var = 0
    2  main.s                   var = 0
    3  0                        constant
    4  0x80241                  constant
    5  420                      constant
    6  65                       constant
    7  -100                     constant
    8  0x40101002               constant
    9  2                        constant
   10  2049                     constant
   11  1                        constant
   12  st                       address
   13  4                        constant
   14  6                        constant
   15  99                       constant
   16  0x80000                  constant
   17  15                       constant
   18  448                      constant
   19  512                      constant
   20  4096                     constant
   21  3                        constant
   22  2048                     constant
objects:
       st                       buffer, 256 bytes
