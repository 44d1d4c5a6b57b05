#!/usr/bin/env python3
"""Writes the seed corpora of the fuzz targets into fuzz/seeds/<target>/ from the case corpus
(cases/*.jsonl), the records in tests/data/ (PGN, XQF, DhtmlXQ, UCCI) and a few hand-written
texts.

Run from the repository root: python3 fuzz/seeds/make_seeds.py
"""
import glob
import json
import os
import shutil

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SEEDS = os.path.join(ROOT, "fuzz", "seeds")
RULESETS = {"cxa1999": 0, "cxa2011": 1, "axf": 2, "wxf": 2}


def cases():
    out = []
    for path in sorted(glob.glob(os.path.join(ROOT, "cases", "*.jsonl"))):
        picked = 0
        with open(path, encoding="utf-8") as f:
            for line in f:
                line = line.strip()
                if not line:
                    continue
                case = json.loads(line)
                # every sixth case of each file: a few dozen in all
                if picked % 6 == 0:
                    out.append(case)
                picked += 1
    return out


def write(target, name, data):
    d = os.path.join(SEEDS, target)
    os.makedirs(d, exist_ok=True)
    if isinstance(data, str):
        data = data.encode("utf-8")
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


# --- protobuf, by hand: strings, varints and nested messages are all the requests use ---
def varint(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def field_bytes(num, data):
    return varint(num << 3 | 2) + varint(len(data)) + data


def field_str(num, s):
    return field_bytes(num, s.encode("utf-8"))


def field_varint(num, n):
    return varint(num << 3) + varint(n)


def by_side(b):
    out = b""
    if b.get("red"):
        out += field_varint(1, 1)
    if b.get("black"):
        out += field_varint(2, 1)
    return out


def main():
    for target in os.listdir(SEEDS) if os.path.isdir(SEEDS) else []:
        p = os.path.join(SEEDS, target)
        if os.path.isdir(p):
            shutil.rmtree(p)
    cs = cases()

    # fen: the cases' start positions, the opening, and some that must be rejected
    fens = sorted({c["fen"] for c in cs if c.get("fen")})[:24]
    fens += [
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 65535 65535",
        "3k5/9/9/9/9/9/9/9/9/4K4 w",
        "3k5/9/9/9/9/9/9/9/9/3K5 w",
        "4k4/9/9/9/9/9/9/9/9/4K4 r - - 12 40",
        "2bak4/4a4/4b4/9/9/2B6/4N4/4N1C2/4A1C2/3AK1B2 w",
        "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w",
        "R8/9/9/9/9/9/9/9/9/4K4 b",
    ]
    for i, fen in enumerate(fens):
        write("fen", f"{i:02}", fen)

    # notations: selector byte (2 * index into qili_fuzz::FENS, +1 for colours flipped), then text
    iccs = [(0, "h2e2"), (0, "H2-E2"), (0, "b0c2"), (2, "h9g7"), (2, "B9-C7"), (4, "e4e6"),
            (6, "c6c7"), (16, "c1d1"), (0, "a0a9"), (0, "e0e1"), (22, "e6f6")]
    wxf = [(0, "C2.5"), (0, "H8+7"), (0, "R1+1"), (0, "P7+1"), (2, "H2+3"), (4, "R+.3"),
           (4, "R-+2"), (6, "P+.4"), (6, "33.4"), (8, "++.7"), (8, "--+1"), (10, "C+.1"),
           (10, "H-+1"), (10, "E7+5"), (10, "A6+5"), (22, "P5.4"), (0, "c25"), (0, "Ｃ２．５")]
    chinese = [(0, "炮二平五"), (2, "马８进７"), (2, "马8进7"), (2, "馬八進七"), (0, "車九進一"),
               (4, "前车进三"), (4, "后车平四"), (6, "前兵进一"), (6, "中兵平六"), (8, "一兵平六"),
               (8, "三兵进一"), (10, "前炮退一"), (10, "后马进六"), (6, "前七进一"), (0, "帅五进一"),
               (2, "将５平４"), (0, "炮2平5"), (2, "卒７进１"), (0, "兵三進一")]
    for target, items in (("notation_iccs", iccs), ("notation_wxf", wxf),
                          ("notation_chinese", chinese)):
        for i, (sel, text) in enumerate(items):
            write(target, f"{i:02}", bytes([sel]) + text.encode("utf-8"))

    # pgn: the real records (GBK, CRLF) and a few in other notations
    for path in sorted(glob.glob(os.path.join(ROOT, "tests", "data", "pgn", "*.pgn"))):
        with open(path, "rb") as f:
            write("pgn", os.path.basename(path), f.read())
    write("pgn", "wxf.pgn", '[Format "WXF"]\n1. C2.5 H8+7 2. H2+3 R9.8 (2... C8.6) 1-0\n')
    write("pgn", "iccs.pgn",
          '[Event "x"]\n[Format "ICCS"]\n[FEN "3k5/9/9/9/9/9/4R4/9/9/4K4 w - - 0 1"]\n'
          '1. E3-D3 {check} D9-E9 2. D3-E3 $1 E9-D9 *\n')
    write("pgn", "two-games.pgn",
          '[Event "a"]\n1. 炮二平五 马８进７ 1/2-1/2\n\n[Event "b"]\n'
          '1. 兵七进一 ; comment\n1... 卒７进１ 0-1\nadvertisement\n')
    write("pgn", "bom.pgn", "\ufeff[Event \"bom\"]\r\n1. h2e2 h9g7 *\r\n")

    # xqf, dhtmlxq: the fixtures and golden files of tests/data (every XQF version, GBK and UTF-8)
    for target, folder, pattern in (("xqf", "xqf", "*.xqf"), ("dhtmlxq", "dhtmlxq", "*.txt"),
                                    ("dhtmlxq", "dhtmlxq", "*.html")):
        for path in sorted(glob.glob(os.path.join(ROOT, "tests", "data", folder, pattern))):
            with open(path, "rb") as f:
                write(target, os.path.basename(path), f.read())

    # ucci: the golden strings, a line each, and some that must be rejected
    with open(os.path.join(ROOT, "tests", "data", "ucci", "positions.txt"), encoding="utf-8") as f:
        ucci = [line.strip() for line in f if line.strip()]
    ucci += ["startpos", "position startpos", "position fen 3k5/9/9/9/9/9/9/9/9/4K4 b - - 0 1",
             "position startpos moves h2e2 h9h1", "position midgame", "fen", "startpos moves",
             "position fen 4k4/R8/9/9/9/9/9/9/9/3K5 w moves a8a9 e9e8 a9a8 e8e9 junk"]
    for i, text in enumerate(ucci):
        write("ucci", f"{i:02}", text)

    # record: one of each format, and formats qili names but does not read
    for name in ("pgn/ccgc-01.pgn", "xqf/ccgc-02.xqf", "xqf/xqstudio-1.0-sample.xqf",
                 "dhtmlxq/dpxq-sample.txt", "dhtmlxq/forum-page-gbk.html", "ucci/positions.txt"):
        with open(os.path.join(ROOT, "tests", "data", name), "rb") as f:
            write("record", name.replace("/", "-"), f.read())
    for i, data in enumerate([b"CCBridge Record\0", b"PK\x03\x04\x14\0", b"%PDF-1.4\n",
                              b"<html><body></body></html>", b'{"id":"x"}', b"\xff\xfe[\0E\0",
                              b"XQ\x0a" + b"\0" * 100]):
        write("record", f"other-{i}", data)

    # request: options byte, FEN line, moves
    for i, c in enumerate(cs):
        flags = RULESETS.get(c.get("ruleset", "cxa1999"), 0)
        told, key = c.get("told_to_change", {}), c.get("defensive_key_point", {})
        flags |= (4 if told.get("red") else 0) | (8 if told.get("black") else 0)
        flags |= (16 if key.get("red") else 0) | (32 if key.get("black") else 0)
        text = c.get("fen", "") + "\n" + " ".join(c["moves"])
        write("request", c["id"][:60], bytes([flags]) + text.encode("utf-8"))

    # service: 0 + AdjudicateRequest, or 1 + AnalyzeRequest, in protobuf
    for i, c in enumerate(cs[::2]):
        msg = field_str(1, c["id"]) + field_str(2, c.get("fen", ""))
        for m in c["moves"]:
            msg += field_str(3, m)
        msg += field_str(5, c.get("ruleset", "cxa1999"))
        if c.get("told_to_change"):
            msg += field_bytes(6, by_side(c["told_to_change"]))
        if c.get("defensive_key_point"):
            msg += field_bytes(7, by_side(c["defensive_key_point"]))
        msg += field_varint(8, i % 4)
        write("service", "adjudicate-" + c["id"][:50], b"\x00" + msg)
    for i, c in enumerate(cs[1::4]):
        msg = field_str(1, c["id"]) + field_str(2, c.get("fen", "")) + field_str(3, c["moves"][0])
        msg += field_varint(4, i % 4) + field_str(5, c.get("ruleset", "cxa1999"))
        write("service", "analyze-" + c["id"][:50], b"\x01" + msg)


if __name__ == "__main__":
    main()
