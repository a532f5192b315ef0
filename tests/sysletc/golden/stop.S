; profile x86_64, 8-byte words, 3 atoms, 5 cells
; source stop.syslet

syslet main(str path):
    0  fd = open(path, O_RDONLY)            stop-on-negative            next=1 stop=end   ; 5: fd = open(path, O_RDONLY);
    1  n = lseek(fd, 0, SEEK_END)           stop-on-non-positive        next=2 stop=end   ; 8: n = lseek(fd, 0, SEEK_END);
    2  close(fd)                            -                           next=end          ; 11: close(fd);

cells:
    0  main.path                param 0 of main, str
    1  main.fd                  var = 0
    2  main.n                   var = 0
    3  0                        constant
    4  2                        constant
