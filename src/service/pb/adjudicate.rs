//! `qili.v1.AdjudicateRequest`, written by hand rather than generated so that its moves decode
//! into one buffer ([`Moves`]) instead of one `String` a move. The wire format, the proto3 JSON
//! mapping (pbjson's generated code, which reads and writes `Moves` as a list of strings) and the
//! decoding errors are those of the generated message; build.rs maps the proto type here.

use super::{BySide, Detail, GameOptions, Language, Notation};
use crate::request::Moves;
use prost::DecodeError;
use prost::bytes::{Buf, BufMut};
use prost::encoding::{
    DecodeContext, WireType, check_wire_type, decode_key, decode_varint, encode_key, encode_varint,
    encoded_len_varint, int32, key_len, message, skip_field, string,
};
use std::cell::RefCell;

/// One dispute to rule on (the fields' meanings: `proto/qili/v1/qili.proto`).
#[derive(Clone, PartialEq, Eq, Hash, Default)]
pub struct AdjudicateRequest {
    /// The caller's id for this request, echoed back in the answer.
    pub request_id: String,
    /// Start position in FEN, or a UCCI position string; empty means the opening position.
    pub fen: String,
    /// The moves played from the start position, in order.
    pub moves: Moves,
    /// The moves' notation (a `Notation`).
    pub notation: i32,
    /// Rule profile: "cxa1999" (default when empty), "cxa2011", or "axf".
    pub ruleset: String,
    /// Sides the arbiter has already told to change.
    pub told_to_change: Option<BySide>,
    /// Sides the arbiter asserts are defending a key point (要点).
    pub defensive_key_point: Option<BySide>,
    /// Language of the explanation texts (a `Language`).
    pub language: i32,
    /// How much of the ruling to send back (a `Detail`).
    pub detail: i32,
    /// Options of a game in progress, for Status and Watch.
    pub game: Option<GameOptions>,
}

/// The message's name in decoding errors, as prost's derive names it.
const STRUCT_NAME: &str = "AdjudicateRequest";

/// Tag of `moves`.
const MOVES: u32 = 3;

/// Longest move text whose decoding room a thread keeps between moves (a move is 4–20 bytes).
const KEPT_ROOM: usize = 256;

thread_local! {
    /// Where a move is decoded before it joins the buffer: prost's own string decoding (its
    /// checks and errors) without an allocation a move.
    static MOVE_TEXT: RefCell<String> = const { RefCell::new(String::new()) };
}

impl AdjudicateRequest {
    /// `notation` as a `Notation`, or the default if the value is unknown.
    pub fn notation(&self) -> Notation {
        Notation::try_from(self.notation).unwrap_or_default()
    }

    /// Sets `notation`.
    pub fn set_notation(&mut self, value: Notation) {
        self.notation = value as i32;
    }

    /// `language` as a `Language`, or the default if the value is unknown.
    pub fn language(&self) -> Language {
        Language::try_from(self.language).unwrap_or_default()
    }

    /// Sets `language`.
    pub fn set_language(&mut self, value: Language) {
        self.language = value as i32;
    }

    /// `detail` as a `Detail`, or the default if the value is unknown.
    pub fn detail(&self) -> Detail {
        Detail::try_from(self.detail).unwrap_or_default()
    }

    /// Sets `detail`.
    pub fn set_detail(&mut self, value: Detail) {
        self.detail = value as i32;
    }
}

/// Reads one `moves` entry into `moves`: prost's `repeated string` decoding, the text appended.
fn merge_move(
    moves: &mut Moves,
    wire_type: WireType,
    buf: &mut impl Buf,
    ctx: DecodeContext,
) -> Result<(), DecodeError> {
    check_wire_type(WireType::LengthDelimited, wire_type)?;
    if moves.is_empty() {
        // The rest of the message bounds the texts; an entry is 2 bytes or more, 6 in ICCS.
        let rest = buf.remaining();
        moves.reserve(rest / 6, rest);
    }
    // The entry whole in the buffer's first chunk (a unary call's message is one chunk): read in
    // place. Anything else, errors included, is read by prost's own code below.
    let chunk = buf.chunk();
    let mut rest = chunk;
    if let Ok(len) = decode_varint(&mut rest) {
        let text = usize::try_from(len).ok().and_then(|len| rest.get(..len));
        if let Some(text) = text {
            let read = chunk.len() - rest.len() + text.len();
            if moves.push_utf8(text).is_ok() {
                buf.advance(read);
                return Ok(());
            }
        }
    }
    MOVE_TEXT.with_borrow_mut(|text| {
        let read = string::merge(wire_type, text, buf, ctx);
        if read.is_ok() {
            moves.push(text.as_str());
        }
        text.clear();
        if text.capacity() > KEPT_ROOM {
            text.shrink_to(KEPT_ROOM);
        }
        read
    })
}

impl prost::Message for AdjudicateRequest {
    /// prost's loop over the fields, run over a plain slice when the message is one chunk (a
    /// unary call's is): reading a slice costs far less than reading tonic's buffer.
    fn merge(&mut self, mut buf: impl Buf) -> Result<(), DecodeError> {
        let ctx = DecodeContext::default();
        let whole = buf.chunk();
        if whole.len() == buf.remaining() {
            let mut rest = whole;
            let mut read = || {
                while rest.has_remaining() {
                    let (tag, wire_type) = decode_key(&mut rest)?;
                    self.merge_field(tag, wire_type, &mut rest, ctx.clone())?;
                }
                Ok(())
            };
            let merged = read();
            let used = whole.len() - rest.len();
            buf.advance(used);
            return merged;
        }
        while buf.has_remaining() {
            let (tag, wire_type) = decode_key(&mut buf)?;
            self.merge_field(tag, wire_type, &mut buf, ctx.clone())?;
        }
        Ok(())
    }

    fn encode_raw(&self, buf: &mut impl BufMut) {
        if !self.request_id.is_empty() {
            string::encode(1, &self.request_id, buf);
        }
        if !self.fen.is_empty() {
            string::encode(2, &self.fen, buf);
        }
        for text in &self.moves {
            encode_key(MOVES, WireType::LengthDelimited, buf);
            encode_varint(text.len() as u64, buf);
            buf.put_slice(text.as_bytes());
        }
        // proto3: an enumeration at its zero value is not written.
        if self.notation != 0 {
            int32::encode(4, &self.notation, buf);
        }
        if !self.ruleset.is_empty() {
            string::encode(5, &self.ruleset, buf);
        }
        if let Some(side) = &self.told_to_change {
            message::encode(6, side, buf);
        }
        if let Some(side) = &self.defensive_key_point {
            message::encode(7, side, buf);
        }
        if self.language != 0 {
            int32::encode(8, &self.language, buf);
        }
        if self.detail != 0 {
            int32::encode(9, &self.detail, buf);
        }
        if let Some(game) = &self.game {
            message::encode(10, game, buf);
        }
    }

    fn merge_field(
        &mut self,
        tag: u32,
        wire_type: WireType,
        buf: &mut impl Buf,
        ctx: DecodeContext,
    ) -> Result<(), DecodeError> {
        let named = |field: &'static str| {
            move |mut error: DecodeError| {
                error.push(STRUCT_NAME, field);
                error
            }
        };
        match tag {
            1 => string::merge(wire_type, &mut self.request_id, buf, ctx)
                .map_err(named("request_id")),
            2 => string::merge(wire_type, &mut self.fen, buf, ctx).map_err(named("fen")),
            MOVES => merge_move(&mut self.moves, wire_type, buf, ctx).map_err(named("moves")),
            4 => int32::merge(wire_type, &mut self.notation, buf, ctx).map_err(named("notation")),
            5 => string::merge(wire_type, &mut self.ruleset, buf, ctx).map_err(named("ruleset")),
            6 => message::merge(
                wire_type,
                self.told_to_change.get_or_insert_with(BySide::default),
                buf,
                ctx,
            )
            .map_err(named("told_to_change")),
            7 => message::merge(
                wire_type,
                self.defensive_key_point.get_or_insert_with(BySide::default),
                buf,
                ctx,
            )
            .map_err(named("defensive_key_point")),
            8 => int32::merge(wire_type, &mut self.language, buf, ctx).map_err(named("language")),
            9 => int32::merge(wire_type, &mut self.detail, buf, ctx).map_err(named("detail")),
            10 => message::merge(
                wire_type,
                self.game.get_or_insert_with(GameOptions::default),
                buf,
                ctx,
            )
            .map_err(named("game")),
            _ => skip_field(wire_type, tag, buf, ctx),
        }
    }

    fn encoded_len(&self) -> usize {
        let text = |tag: u32, s: &String| {
            if s.is_empty() {
                0
            } else {
                string::encoded_len(tag, s)
            }
        };
        let number = |tag: u32, n: i32, default: i32| {
            if n == default {
                0
            } else {
                int32::encoded_len(tag, &n)
            }
        };
        let moves: usize = self
            .moves
            .iter()
            .map(|m| encoded_len_varint(m.len() as u64) + m.len())
            .sum::<usize>()
            + key_len(MOVES) * self.moves.len();
        text(1, &self.request_id)
            + text(2, &self.fen)
            + moves
            + number(4, self.notation, 0)
            + text(5, &self.ruleset)
            + self
                .told_to_change
                .as_ref()
                .map_or(0, |m| message::encoded_len(6, m))
            + self
                .defensive_key_point
                .as_ref()
                .map_or(0, |m| message::encoded_len(7, m))
            + number(8, self.language, 0)
            + number(9, self.detail, 0)
            + self
                .game
                .as_ref()
                .map_or(0, |m| message::encoded_len(10, m))
    }

    fn clear(&mut self) {
        *self = AdjudicateRequest::default();
    }
}

impl std::fmt::Debug for AdjudicateRequest {
    /// As prost's derive writes it: enumerations by name when known.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        /// An enumeration field: its variant when known, else the number.
        struct Named<E>(i32, std::marker::PhantomData<E>);
        impl<E: TryFrom<i32> + std::fmt::Debug> std::fmt::Debug for Named<E> {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                match E::try_from(self.0) {
                    Ok(e) => e.fmt(f),
                    Err(_) => self.0.fmt(f),
                }
            }
        }
        f.debug_struct(STRUCT_NAME)
            .field("request_id", &self.request_id)
            .field("fen", &self.fen)
            .field("moves", &self.moves)
            .field(
                "notation",
                &Named::<Notation>(self.notation, std::marker::PhantomData),
            )
            .field("ruleset", &self.ruleset)
            .field("told_to_change", &self.told_to_change)
            .field("defensive_key_point", &self.defensive_key_point)
            .field(
                "language",
                &Named::<Language>(self.language, std::marker::PhantomData),
            )
            .field(
                "detail",
                &Named::<Detail>(self.detail, std::marker::PhantomData),
            )
            .field("game", &self.game)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use prost::Message;

    /// What prost's derive writes for the same fields (`moves` as `repeated string`).
    fn generated_bytes(moves: &[&str]) -> Vec<u8> {
        let mut buf = Vec::new();
        string::encode(1, &"id".to_string(), &mut buf);
        string::encode(2, &"startpos".to_string(), &mut buf);
        let moves: Vec<String> = moves.iter().map(|m| (*m).to_string()).collect();
        string::encode_repeated(MOVES, &moves, &mut buf);
        int32::encode(9, &(Detail::Verdict as i32), &mut buf);
        buf
    }

    #[test]
    fn reads_and_writes_the_generated_wire_format() {
        let moves = ["h2e2", "h9g7", "炮二平五", ""];
        let bytes = generated_bytes(&moves);
        let r = AdjudicateRequest::decode(bytes.as_slice()).expect("decodes");
        assert_eq!(r.moves.iter().collect::<Vec<_>>(), moves);
        assert_eq!((r.request_id.as_str(), r.fen.as_str()), ("id", "startpos"));
        assert_eq!(r.detail(), Detail::Verdict);
        assert_eq!(r.encode_to_vec(), bytes);
        assert_eq!(r.encoded_len(), bytes.len());
        // In two chunks, split inside a move: the same message.
        let (a, b) = bytes.split_at(bytes.len() / 2);
        assert_eq!(AdjudicateRequest::decode(a.chain(b)).expect("decodes"), r);
    }

    #[test]
    fn errors_are_prosts() {
        let mut bad = generated_bytes(&["h2e2"]);
        let at = bad.len() - 4;
        bad[at] = 0xff; // 'e' of "h2e2" (the detail's 2 bytes follow)
        let e = AdjudicateRequest::decode(bad.as_slice()).expect_err("not UTF-8");
        assert_eq!(
            e.to_string(),
            "failed to decode Protobuf message: AdjudicateRequest.moves: invalid string value: \
             data is not UTF-8 encoded"
        );
        let short = [0x1a, 0x05, b'h', b'2'];
        let e = AdjudicateRequest::decode(&short[..]).expect_err("cut short");
        assert_eq!(
            e.to_string(),
            "failed to decode Protobuf message: AdjudicateRequest.moves: buffer underflow"
        );
        let e = AdjudicateRequest::decode(&[0x18, 0x01][..]).expect_err("a varint");
        assert!(
            e.to_string()
                .contains("AdjudicateRequest.moves: invalid wire type"),
            "{e}"
        );
    }

    #[test]
    fn json_reads_and_writes_moves_as_a_list() {
        let r: AdjudicateRequest =
            serde_json::from_str(r#"{"moves":["h2e2","h9g7"],"detail":"DETAIL_VERDICT"}"#)
                .expect("reads");
        assert_eq!(r.moves, Moves::from(vec!["h2e2", "h9g7"]));
        assert_eq!(
            serde_json::to_string(&r).expect("writes"),
            concat!(
                r#"{"requestId":"","fen":"","moves":["h2e2","h9g7"],"notation":"NOTATION_AUTO","#,
                r#""ruleset":"","language":"LANGUAGE_BOTH","detail":"DETAIL_VERDICT"}"#
            )
        );
        // Read as a `Vec<String>` is, errors included.
        for json in [
            r#"["h2e2",5]"#,
            r#""h2e2""#,
            "null",
            r#"["a\u00e9"]"#,
            "[",
            r#"["x"]"#,
        ] {
            let moves = serde_json::from_str::<Moves>(json).map_err(|e| e.to_string());
            let list = serde_json::from_str::<Vec<String>>(json).map_err(|e| e.to_string());
            assert_eq!(moves, list.map(Moves::from), "{json}");
        }
        assert_eq!(
            format!("{:?}", r.moves),
            format!("{:?}", vec!["h2e2", "h9g7"])
        );
    }
}
