; profile x86_64, 8-byte words, 6 atoms, 11 cells
; source args.syslet

syslet main():
    0  fd = open("/dev/null", O_WRONLY)     -                           next=1            ; 10: fd = open("/dev/null", O_WRONLY);
    1  write(fd, msg, 6)                    -                           next=2            ; 11: write(fd, msg, len(msg));
    2  write(fd, buf, 128)                  -                           next=3            ; 12: write(fd, buf, sizeof(buf));
    3  umem_add(&total, 1)                  -                           next=4            ; 13: umem_add(&total, 1);
    4  write(fd, "tab\tquote\"\n", 11)      -                           next=5            ; 14: write(fd, "tab\tquote\"\n", 11);
    5  close(fd)                            -                           next=end          ; 15: close(fd);

cells:
    0  total                    var = 5
    1  main.fd                  var = 0
    2  "/dev/null"              address
    3  1                        constant
    4  msg                      address
    5  6                        constant
    6  buf                      address
    7  128                      constant
    8  &total                   address
    9  "tab\tquote\"\n"         address
   10  11                       constant
objects:
       buf                      buffer, 128 bytes
       msg                      data, 7 bytes: "hello\n"
