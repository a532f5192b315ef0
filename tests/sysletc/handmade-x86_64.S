; profile x86_64, 8-byte words, 7 atoms, 14 cells
; source hand.syslet

syslet cat(str path):
    0  fd = open(path, O_RDONLY)            stop-on-negative            next=1 stop=end   ; 1: fd = open(path, O_RDONLY);
again:
    1  n = read(fd, buf, 4096)              stop-on-non-positive|skip   next=3 stop=2     ; 2: while ((n = read(fd, buf, BUFSZ)) > 0)
    2  close(fd)                            -                           next=5            ; 5: close(fd);
    3  write(1, buf, n)                     -                           next=4            ; 3: write(1, buf, n);
    4  %13 = umem_add(&total, n)            -                           next=1            ; 4: total += n; [arith]
    5  write(1, greeting, 6)                -                           next=6            ; 6: write(1, greeting, 6);
    6  write(1, "bye\n", 4)                 -                           next=end          ; 7: write(1, "bye\n", 4);

cells:
    0  cat.path                 param 0 of cat, str
    1  cat.fd                   var = -1
    2  cat.n                    var = 0
    3  total                    var = 0
    4  0                        constant
    5  1                        constant
    6  4                        constant
    7  6                        constant
    8  4096                     constant
    9  buf                      address
   10  greeting                 address
   11  "bye\n"                  address
   12  &total                   address
   13  %13                      scratch = 0
objects:
       buf                      buffer, 4096 bytes
       greeting                 data, 7 bytes: "hello\n"
