; profile x86_64, 8-byte words, 5 atoms, 9 cells
; source strings.syslet

syslet main():
    0  write(1, "a\0b\n", 4)                -                           next=1            ; 3: write(1, "a\0b\n", 4);
    1  write(1, "x\ty\"z\\\r\x01", 8)       -                           next=2            ; 4: write(1, "x\ty\"z\\\r\x01", 8);
    2  write(1, "\0", 1)                    -                           next=3            ; 5: write(1, "\0", 1);
    3  write(1, "tail", 4)                  -                           next=4            ; 6: write(1, "tail", 4);
    4  write(1, "b\n", 2)                   -                           next=end          ; 7: write(1, "a\0b\n" + 2, 2);

cells:
    0  1                        constant
    1  "a\0b\n"                 address
    2  4                        constant
    3  "x\ty\"z\\\r\x01"        address
    4  8                        constant
    5  "\0"                     address
    6  "tail"                   address
    7  "b\n"                    address
    8  2                        constant
