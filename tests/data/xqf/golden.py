#!/usr/bin/env python3
"""Writes the hand-checked golden XQF files of this folder (run from the repository root:
python3 tests/data/xqf/golden.py). They are not made by qili's writer, so they check it.

* xqstudio-1.0-sample.xqf: the example file of XQStudio's own XQF 1.0 format description
  ("象棋演播室(XQStudio) 1.0 版XQF文件格式说明", 2001; kept with ElephantEye's XQF tools as
  XQF.TXT), byte for byte from its hex listing: 柳大华 v 吕钦, 1997, 8 rounds, black wins.
* xqstudio-1.0-variation.xqf: the same game with two things 1.0 files may hold that the sample
  lacks: a comment on the start and on move 2, and a variation on move 1 (red's 兵三进一 instead
  of 兵七进一, then black's 卒７进１), stored after the main line as the format's tree order puts
  it. Readers take the main line and skip the rest.
"""
import os

HERE = os.path.dirname(os.path.abspath(__file__))

# The listing, 16 bytes a row; rows of zeros the description leaves out are zeros.
SAMPLE_ROWS = {
    0x0000: "58 51 0A 00 00 00 00 00 00 00 00 00 00 00 00 00",
    0x0010: "50 46 3C 32 28 1E 14 0A 00 48 0C 53 3F 2B 17 03",
    0x0020: "09 13 1D 27 31 3B 45 4F 59 11 4D 06 1A 2E 42 56",
    0x0030: "00 00 00 02 00 00 00 00 00 00 00 00 00 00 00 00",
    0x0050: "10 CF C9 C8 CB D6 B8 C2 B7 B6 D4 C6 F0 C2 ED BE",
    0x0060: "D6 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00",
    0x00D0: "16 22 D6 D0 C1 A2 B1 AD 22 CF F3 C6 E5 B5 E7 CA",
    0x00E0: "D3 BF EC C6 E5 C8 FC 00 00 00 00 00 00 00 00 00",
    0x0110: "0E 31 39 39 37 C4 EA 31 31 D4 C2 31 36 C8 D5 00",
    0x0120: "04 B1 B1 BE A9 00 00 00 00 00 00 00 00 00 00 00",
    0x0130: "06 C1 F8 B4 F3 BB AA 00 00 00 00 00 00 00 00 00",
    0x0140: "06 C2 C0 20 20 C7 D5 00 00 00 00 00 00 00 00 00",
    0x01D0: "06 C1 F5 B5 EE D6 D0 00 00 00 00 00 00 00 00 00",
    0x01E0: "06 B9 FD BA D3 CF F3 00 00 00 00 00 00 00 00 00",
    0x0400: "18 20 F0 FF 00 00 00 00 2F 38 F0 00 00 00 00 00",
    0x0410: "67 63 F0 00 00 00 00 00 57 60 F0 00 00 00 00 00",
    0x0420: "29 3B F0 00 00 00 00 00 2C 4A F0 00 00 00 00 00",
    0x0430: "2B 27 F0 00 00 00 00 00 22 36 F0 00 00 00 00 00",
    0x0440: "21 33 F0 00 00 00 00 00 18 2A F0 00 00 00 00 00",
    0x0450: "2B 2F F0 00 00 00 00 00 24 22 F0 00 00 00 00 00",
    0x0460: "27 6B F0 00 00 00 00 00 60 6D F0 00 00 00 00 00",
    0x0470: "33 6D F0 00 00 00 00 00 5E 5E F0 00 00 00 00 00",
    0x0480: "71 6F 00 00 00 00 00 00",
}


def sample():
    data = bytearray(0x488)
    for at, row in SAMPLE_ROWS.items():
        b = bytes.fromhex(row)
        data[at:at + len(b)] = b
    assert len(data) == 1160  # "该文件的大小为0x0488(十进制1160)个字节"
    return bytes(data)


def record(src, dst, flags, comment=b""):
    """A 1.0 move record: points as x * 10 + y, plus 24 and 32; then the comment's length."""
    return bytes([src + 24, dst + 32, flags, 0]) + len(comment).to_bytes(4, "little") + comment


def variation():
    data = bytearray(sample()[:0x400])
    start_comment = "仙人指路".encode("gbk")
    data += bytes([0x18, 0x20, 0xF0, 0xFF]) + len(start_comment).to_bytes(4, "little")
    data += start_comment
    # Move 1, 兵七进一 (c3-c4): has a next move (0xF0) and a variation (0x0F).
    data += record(23, 24, 0xFF)
    # Move 2, 马８进７ (h9-g7), with a comment; then the rest of the main line as in the sample.
    data += record(79, 67, 0xF0, "起马应仙人指路".encode("gbk"))
    data += sample()[0x400 + 3 * 8:]
    # The variation of move 1: 兵三进一 (g3-g4), then 卒７进１ (g6-g5), the end of its line.
    data += record(63, 64, 0xF0)
    data += record(66, 65, 0x00)
    return bytes(data)


def main():
    for name, data in (("xqstudio-1.0-sample.xqf", sample()),
                       ("xqstudio-1.0-variation.xqf", variation())):
        with open(os.path.join(HERE, name), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main()
