; profile x86_64, 8-byte words, 10 atoms, 17 cells
; source at-flags.syslet

syslet at():
    0  statx(AT_FDCWD, "x", AT_STATX_DONT_SYNC|AT_SYMLINK_NOFOLLOW, STATX_MODE|STATX_SIZE, b) - next=1 ; 5: statx(AT_FDCWD, "x", AT_SYMLINK_NOFOLLOW | AT_STATX_DONT_SYNC, STATX_MODE | STATX_SIZE, b);
    1  statx(3, "", AT_STATX_SYNC_AS_STAT|AT_EMPTY_PATH, STATX_BASIC_STATS|STATX_MNT_ID, b) - next=2 ; 6: statx(3, "", AT_EMPTY_PATH, STATX_BASIC_STATS | STATX_MNT_ID, b);
    2  statx(3, "", AT_STATX_SYNC_AS_STAT, 0, b) -                      next=3            ; 7: statx(3, "", 0, 0, b);
    3  faccessat2(AT_FDCWD, "x", R_OK|W_OK, AT_EACCESS) -               next=4            ; 8: faccessat2(AT_FDCWD, "x", R_OK | W_OK, AT_EACCESS);
    4  faccessat2(AT_FDCWD, "x", F_OK, AT_SYMLINK_NOFOLLOW|AT_EACCESS|AT_EMPTY_PATH) - next=5 ; 9: faccessat2(AT_FDCWD, "x", F_OK, AT_EMPTY_PATH | AT_EACCESS | AT_SYMLINK_NOFOLLOW);
    5  unlinkat(AT_FDCWD, "x", AT_REMOVEDIR) -                          next=6            ; 10: unlinkat(AT_FDCWD, "x", AT_REMOVEDIR);
    6  linkat(AT_FDCWD, "x", AT_FDCWD, "y", AT_SYMLINK_FOLLOW|AT_EMPTY_PATH) - next=7     ; 11: linkat(AT_FDCWD, "x", AT_FDCWD, "y", AT_SYMLINK_FOLLOW | AT_EMPTY_PATH);
    7  renameat2(AT_FDCWD, "x", AT_FDCWD, "y", RENAME_NOREPLACE) -      next=8            ; 12: renameat2(AT_FDCWD, "x", AT_FDCWD, "y", RENAME_NOREPLACE);
    8  renameat2(3, "x", 4, "y", RENAME_EXCHANGE|RENAME_WHITEOUT) -     next=9            ; 13: renameat2(3, "x", 4, "y", RENAME_EXCHANGE | RENAME_WHITEOUT);
    9  name_to_handle_at(AT_FDCWD, "x", b, b, AT_EMPTY_PATH) -          next=end          ; 14: name_to_handle_at(AT_FDCWD, "x", b, b, AT_EMPTY_PATH);

cells:
    0  -100                     constant
    1  "x"                      address
    2  16640                    constant
    3  514                      constant
    4  b                        address
    5  3                        constant
    6  ""                       address
    7  4096                     constant
    8  6143                     constant
    9  0                        constant
   10  6                        constant
   11  512                      constant
   12  4864                     constant
   13  "y"                      address
   14  5120                     constant
   15  1                        constant
   16  4                        constant
objects:
       b                        buffer, 256 bytes
