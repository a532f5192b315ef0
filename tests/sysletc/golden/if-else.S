; profile x86_64, 8-byte words, 6 atoms, 7 cells
; source if-else.syslet

syslet main(str path):
    0  fd = open(path, O_RDONLY)            stop-on-negative|skip       next=2 stop=1     ; 5: fd = open(path, O_RDONLY);
    1  write(2, "cannot open\n", 12)        -                           next=5            ; 7: write(2, "cannot open\n", 12);
    2  read(fd, NULL, 0)                    stop-on-negative|skip       next=4 stop=3     ; 9: if (read(fd, 0, 0) < 0)
    3  write(2, "cannot read\n", 12)        -                           next=4            ; 10: write(2, "cannot read\n", 12);
    4  close(fd)                            -                           next=5            ; 11: close(fd);
    5  getpid()                             -                           next=end          ; 13: getpid();

cells:
    0  main.path                param 0 of main, str
    1  main.fd                  var = 0
    2  0                        constant
    3  2                        constant
    4  "cannot read\n"          address
    5  12                       constant
    6  "cannot open\n"          address
