; profile x86_64, 8-byte words, 2 atoms, 3 cells
; source syscall-nr.syslet

syslet main():
    0  getpid()                             -                           next=1            ; 4: syscall(39);
    1  write(1, "n\n", 2)                   -                           next=end          ; 5: syscall(1, 1, "n\n", 2);

cells:
    0  1                        constant
    1  "n\n"                    address
    2  2                        constant
