; profile x86_64, 8-byte words, 8 atoms, 5 cells
; source null.syslet

syslet main(int fd):
    0  write(fd, NULL, 0)                   -                           next=1            ; 6: write(fd, NULL, 0);
    1  read(fd, NULL, 0)                    -                           next=2            ; 7: read(fd, 0, 0);
    2  nanosleep(st, NULL)                  -                           next=3            ; 8: nanosleep(st, NULL);
    3  munmap(NULL, 4096)                   -                           next=4            ; 9: munmap(NULL, 4096);
    4  fstat(fd, NULL)                      -                           next=5            ; 10: fstat(fd, NULL);
    5  lseek(fd, 0, SEEK_SET)               -                           next=6            ; 11: lseek(fd, 0, SEEK_SET);
    6  open(NULL, O_RDONLY)                 -                           next=7            ; 12: open(NULL, 0);
    7  wait4(-1, NULL, 0, NULL)             -                           next=end          ; 13: wait4(-1, NULL, 0, NULL);

cells:
    0  main.fd                  param 0 of main, int
    1  0                        constant
    2  st                       address
    3  4096                     constant
    4  -1                       constant
objects:
       st                       buffer, 144 bytes
