; profile i386, 4-byte words, 7 atoms, 9 cells
; source elements-i386.syslet

syslet main(sockaddr_in addr):
    0  pipe(fds)                            stop-on-negative            next=1 stop=end   ; 10: if (pipe(fds) < 0)
    1  %w2 = umem_add(lens, 0)              -                           next=2            ; 12: write(fds[1], "ok\n", lens[0]); [copy]
    2  %w2+2 = umem_add(&0, 0)              -                           next=3            ; 12: write(fds[1], "ok\n", lens[0]); [copy]
    3  write(fds[1], "ok\n", lens[0])       -                           next=4            ; 12: write(fds[1], "ok\n", lens[0]);
    4  w[0] = read(fds[0], buf, 16)         stop-on-non-positive|skip   next=6 stop=5     ; 13: w[0] = read(fds[0], buf, sizeof(buf));
    5  bind(fds[0], addr, 16)               -                           next=end          ; 16: bind(fds[0], addr, sizeof(addr));
    6  write(1, buf, w[0])                  -                           next=5            ; 15: write(1, buf, w[0]);

cells:
    0  main.addr                param 0 of main, sockaddr_in
    1  fds                      address
    2  lens                     address
    3  0                        constant
    4  &0                       address
    5  "ok\n"                   address
    6  buf                      address
    7  16                       constant
    8  1                        constant
objects:
       fds                      buffer, 8 bytes
       w                        buffer, 8 bytes
       lens                     data, 4 bytes: 03 00 06 00
       buf                      buffer, 16 bytes
