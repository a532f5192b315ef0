; profile x86_64, 8-byte words, 2 atoms, 8 cells
; source mmap.syslet

syslet main(int fd):
    0  mmap(NULL, 4096, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0) - next=1  ; 6: mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    1  mmap(NULL, 8192, PROT_READ, MAP_SHARED, fd, 4096) -              next=end          ; 7: mmap(0, 8192, PROT_READ, MAP_SHARED, fd, 4096);

cells:
    0  main.fd                  param 0 of main, int
    1  0                        constant
    2  4096                     constant
    3  3                        constant
    4  34                       constant
    5  -1                       constant
    6  8192                     constant
    7  1                        constant
