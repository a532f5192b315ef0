; profile x86_64, 8-byte words, 12 atoms, 9 cells
; source elements.syslet

syslet main(sockaddr_in addr):
    0  pipe(fds)                            stop-on-negative            next=1 stop=end   ; 9: if (pipe(fds) < 0)
    1  %w0-4 = umem_add(fds, 0)             -                           next=2            ; 11: write(fds[1], "ok\n", lens[0]); [copy]
    2  %w2 = umem_add(lens, 0)              -                           next=3            ; 11: write(fds[1], "ok\n", lens[0]); [copy]
    3  %w2+2 = umem_add(&0, 0)              -                           next=4            ; 11: write(fds[1], "ok\n", lens[0]); [copy]
    4  write(fds[1], "ok\n", lens[0])       -                           next=5            ; 11: write(fds[1], "ok\n", lens[0]);
    5  %w0 = umem_add(fds, 0)               -                           next=6            ; 12: w[0] = read(fds[0], buf, sizeof(buf)); [copy]
    6  %w0+4 = umem_add(&0, 0)              -                           next=7            ; 12: w[0] = read(fds[0], buf, sizeof(buf)); [copy]
    7  w[0] = read(fds[0], buf, 16)         stop-on-non-positive|skip   next=9 stop=8     ; 12: w[0] = read(fds[0], buf, sizeof(buf));
    8  %w0 = umem_add(fds, 0)               -                           next=10           ; 15: bind(fds[0], addr, sizeof(addr)); [copy]
    9  write(1, buf, w[0])                  -                           next=8            ; 14: write(1, buf, w[0]);
   10  %w0+4 = umem_add(&0, 0)              -                           next=11           ; 15: bind(fds[0], addr, sizeof(addr)); [copy]
   11  bind(fds[0], addr, 16)               -                           next=end          ; 15: bind(fds[0], addr, sizeof(addr));

cells:
    0  main.addr                param 0 of main, sockaddr_in
    1  fds                      address
    2  0                        constant
    3  lens                     address
    4  &0                       address
    5  "ok\n"                   address
    6  buf                      address
    7  16                       constant
    8  1                        constant
objects:
       fds                      buffer, 8 bytes
       w                        buffer, 16 bytes
       lens                     data, 4 bytes: 03 00 06 00
       buf                      buffer, 16 bytes
