//! The text of a record, whatever its encoding: UTF-8, UTF-16 with a byte-order mark, or GB18030
//! (a superset of GBK/GB2312, the encoding of most Chinese downloads).

use std::borrow::Cow;

/// The text of a record: UTF-8 (BOM dropped) if valid, UTF-16 if it has a BOM, else GB18030.
pub fn decode_text(bytes: &[u8]) -> Cow<'_, str> {
    if let Some(rest) = bytes.strip_prefix(b"\xEF\xBB\xBF") {
        return decode_text(rest);
    }
    if let Ok(s) = std::str::from_utf8(bytes) {
        return Cow::Borrowed(s);
    }
    for (bom, encoding) in [
        (&b"\xFF\xFE"[..], encoding_rs::UTF_16LE),
        (&b"\xFE\xFF"[..], encoding_rs::UTF_16BE),
    ] {
        if let Some(rest) = bytes.strip_prefix(bom) {
            return encoding.decode_without_bom_handling(rest).0;
        }
    }
    encoding_rs::GB18030.decode_without_bom_handling(bytes).0
}
