; profile x86_64, 8-byte words, 3 atoms, 7 cells
; source data.syslet

syslet main():
    0  write(1, s, 3)                       -                           next=1            ; 7: write(1, s, len(s));
    1  write(1, mix, 20)                    -                           next=2            ; 8: write(1, mix, sizeof(mix));
    2  write(1, sa, 16)                     -                           next=end          ; 9: write(1, sa, sizeof(sa));

cells:
    0  1                        constant
    1  s                        address
    2  3                        constant
    3  mix                      address
    4  20                       constant
    5  sa                       address
    6  16                       constant
objects:
       s                        data, 4 bytes: "abc"
       mix                      data, 20 bytes: 01 03 02 04 00 00 00 05 00 00 00 00 00 00 00 00 50 01 02 ff
       sa                       data, 16 bytes: 02 00 1f 90 7f 00 00 01 00 00 00 00 00 00 00 00
