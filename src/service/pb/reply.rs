//! `qili.v1.Ruling` as the server writes it: straight from the library's [`Ruling`], the request
//! id and what the caller wants ([`Wanted`]), into one buffer, without the generated message's
//! strings. The bytes are those prost writes for [`super::Ruling`] built by
//! [`convert::reply`](crate::service::convert::reply): fields in ascending tag order, proto3
//! defaults left out, a set message field written even when empty, repeated enumerations packed
//! (tests/reply.rs compares every corpus case at every detail and language). build.rs maps the
//! server's `Ruling`, `AdjudicateStreamResponse` and `GameStatus` here; clients read them as the
//! generated messages, so the server never decodes these.

use super::{Error, GameStatus};
use crate::piece::Piece;
use crate::rules::words::{Lang, Said};
use crate::rules::{
    ArticleId, Defender, LineMove, MoveReport, Ruling, SearchReport, SideReport, Target, Verdict,
};
use crate::service::convert::{self, Wanted};
use crate::square::Square;
use prost::DecodeError;
use prost::bytes::{Buf, BufMut};
use prost::encoding::{
    DecodeContext, WireType, encode_key, encode_varint, encoded_len_varint, message, skip_field,
};
use std::cell::RefCell;

/// Text room a thread keeps for the sentences between replies, per string (a corpus reply's
/// explanation is about 1 KB).
const KEPT_TEXT: usize = 16 * 1024;

thread_local! {
    /// Where a full reply's sentences are written, Chinese and English: said once into strings
    /// kept between replies, then copied into the reply.
    static SAID: RefCell<(Said, Said)> = RefCell::new((Said::default(), Said::default()));
}

/// A ruling's reply as written for the wire: the message's bytes (see the module's doc).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reply {
    bytes: Vec<u8>,
}

impl Reply {
    /// The reply to request `request_id` with ruling `r`, at the detail and in the language
    /// `wanted` asks: the bytes prost writes for `convert::reply(r, request_id, wanted)`.
    pub fn new(r: &Ruling, request_id: &str, wanted: Wanted) -> Reply {
        let mut w = Writer::with_capacity(estimate(r, wanted));
        w.ruling(r, request_id, wanted);
        Reply { bytes: w.buf }
    }

    /// The encoded message.
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes
    }
}

/// Room for a reply at `wanted`'s detail, so that the buffer seldom grows (a full corpus reply
/// is about 1.5 KB a move, a summary's move about 40 bytes).
fn estimate(r: &Ruling, wanted: Wanted) -> usize {
    let per_move = match wanted.detail {
        super::Detail::Verdict => 0,
        super::Detail::Summary => 48,
        super::Detail::Full => 1024,
    };
    96 + per_move * r.moves.len().min(wanted.detailed_moves.max(1))
}

/// prost's `Message` for a reply the server only writes (its inherent `write` and `len`):
/// clients decode the generated message, so a field read is skipped.
macro_rules! written {
    ($t:ty) => {
        impl prost::Message for $t {
            fn encode_raw(&self, buf: &mut impl BufMut) {
                self.write(buf);
            }

            fn merge_field(
                &mut self,
                tag: u32,
                wire_type: WireType,
                buf: &mut impl Buf,
                ctx: DecodeContext,
            ) -> Result<(), DecodeError> {
                skip_field(wire_type, tag, buf, ctx)
            }

            fn encoded_len(&self) -> usize {
                self.len()
            }

            fn clear(&mut self) {
                *self = <$t>::default();
            }
        }
    };
}

impl Reply {
    fn write(&self, buf: &mut impl BufMut) {
        buf.put_slice(&self.bytes);
    }

    fn len(&self) -> usize {
        self.bytes.len()
    }
}

written!(Reply);

/// `qili.v1.AdjudicateStreamResponse` as the server writes it: the request id and the ruling
/// ([`Reply`]) or the error.
#[derive(Clone, Debug, PartialEq)]
pub struct StreamReply {
    /// The request's `request_id`, echoed back.
    pub request_id: String,
    /// The ruling, or why there is none.
    pub result: Result<Reply, Error>,
}

impl Default for StreamReply {
    fn default() -> StreamReply {
        StreamReply {
            request_id: String::new(),
            result: Ok(Reply::default()),
        }
    }
}

/// Tags of `AdjudicateStreamResponse`'s fields.
const STREAM_ID: u32 = 1;
const STREAM_RULING: u32 = 2;
const STREAM_ERROR: u32 = 3;

impl StreamReply {
    fn write(&self, buf: &mut impl BufMut) {
        if !self.request_id.is_empty() {
            prost::encoding::string::encode(STREAM_ID, &self.request_id, buf);
        }
        match &self.result {
            Ok(reply) => message::encode(STREAM_RULING, reply, buf),
            Err(error) => message::encode(STREAM_ERROR, error, buf),
        }
    }

    fn len(&self) -> usize {
        let id = if self.request_id.is_empty() {
            0
        } else {
            prost::encoding::string::encoded_len(STREAM_ID, &self.request_id)
        };
        id + match &self.result {
            Ok(reply) => message::encoded_len(STREAM_RULING, reply),
            Err(error) => message::encoded_len(STREAM_ERROR, error),
        }
    }
}

written!(StreamReply);

/// `qili.v1.GameStatus` as the server writes it: the generated message's fields but its ruling,
/// which is a [`Reply`]. prost writes a message's fields in tag order, so the fields before the
/// ruling's (tags 1–7), the ruling (8) and those after it (9–14) written one after the other are
/// the generated message's bytes.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StatusReply {
    /// The fields before the ruling's.
    head: GameStatus,
    /// The ruling, from `rule_at` occurrences on.
    ruling: Option<Reply>,
    /// The fields after the ruling's.
    tail: GameStatus,
}

/// Tag of `GameStatus.ruling`.
const STATUS_RULING: u32 = 8;

impl StatusReply {
    /// `status` (its `ruling` is not read) with `ruling`.
    pub fn new(status: GameStatus, ruling: Option<Reply>) -> StatusReply {
        // Every field named: one the proto adds must be placed before or after the ruling.
        let GameStatus {
            request_id,
            moves_played,
            last_move,
            to_move,
            in_check,
            repetitions,
            notice,
            ruling: _,
            forbidden_moves,
            banmoves,
            natural_limit,
            told_to_change,
            end,
            error,
        } = status;
        StatusReply {
            head: GameStatus {
                request_id,
                moves_played,
                last_move,
                to_move,
                in_check,
                repetitions,
                notice,
                ..GameStatus::default()
            },
            ruling,
            tail: GameStatus {
                forbidden_moves,
                banmoves,
                natural_limit,
                told_to_change,
                end,
                error,
                ..GameStatus::default()
            },
        }
    }

    /// Sets `error`: why a move of the last message was not played.
    pub fn set_error(&mut self, error: Error) {
        self.tail.error = Some(error);
    }
}

impl StatusReply {
    fn write(&self, buf: &mut impl BufMut) {
        use prost::Message;
        self.head.encode_raw(buf);
        if let Some(ruling) = &self.ruling {
            message::encode(STATUS_RULING, ruling, buf);
        }
        self.tail.encode_raw(buf);
    }

    fn len(&self) -> usize {
        use prost::Message;
        self.head.encoded_len()
            + self
                .ruling
                .as_ref()
                .map_or(0, |r| message::encoded_len(STATUS_RULING, r))
            + self.tail.encoded_len()
    }
}

written!(StatusReply);

/// Writes protobuf fields into one buffer as prost's derive does for the generated messages.
struct Writer {
    buf: Vec<u8>,
}

impl Writer {
    fn with_capacity(n: usize) -> Writer {
        Writer {
            buf: Vec::with_capacity(n),
        }
    }

    /// A varint field (uint32, uint64, enumeration), left out at 0.
    fn varint(&mut self, tag: u32, value: u64) {
        if value != 0 {
            encode_key(tag, WireType::Varint, &mut self.buf);
            encode_varint(value, &mut self.buf);
        }
    }

    /// An enumeration field, left out at 0.
    fn enumeration(&mut self, tag: u32, value: i32) {
        self.int32(tag, value);
    }

    /// An int32 field, left out at 0; a negative value takes ten bytes, as prost writes it.
    fn int32(&mut self, tag: u32, value: i32) {
        // Sign-extended to 64 bits, as prost's `int32::encode` writes it.
        self.varint(tag, u64::from_ne_bytes(i64::from(value).to_ne_bytes()));
    }

    /// A bool field, left out when false.
    fn bool(&mut self, tag: u32, value: bool) {
        self.varint(tag, u64::from(value));
    }

    /// A string field, left out when empty.
    fn text(&mut self, tag: u32, s: &str) {
        if !s.is_empty() {
            self.entry(tag, s.as_bytes());
        }
    }

    /// A length-delimited entry (a repeated string's item, written even when empty).
    fn entry(&mut self, tag: u32, bytes: &[u8]) {
        encode_key(tag, WireType::LengthDelimited, &mut self.buf);
        encode_varint(bytes.len() as u64, &mut self.buf);
        self.buf.extend_from_slice(bytes);
    }

    /// A square's ICCS name (`h2`), always set.
    fn square(&mut self, tag: u32, s: Square) {
        self.entry(tag, &[b'a' + s.file(), b'0' + s.rank()]);
    }

    /// A message field, written even when empty: one byte kept for its length, which is written
    /// once the body is (the body moved up when the length takes more bytes).
    fn message(&mut self, tag: u32, body: impl FnOnce(&mut Writer)) {
        encode_key(tag, WireType::LengthDelimited, &mut self.buf);
        let at = self.buf.len();
        self.buf.push(0);
        body(self);
        let len = self.buf.len() - at - 1;
        if len < 0x80 {
            self.buf[at] = len as u8;
            return;
        }
        let mut prefix = [0u8; 10];
        let mut n = 0;
        let mut rest = len;
        while rest >= 0x80 {
            prefix[n] = (rest & 0x7f) as u8 | 0x80;
            rest >>= 7;
            n += 1;
        }
        prefix[n] = rest as u8;
        self.buf.splice(at..=at, prefix[..=n].iter().copied());
    }

    fn ruling(&mut self, r: &Ruling, request_id: &str, wanted: Wanted) {
        use super::Detail;
        self.text(1, request_id);
        self.enumeration(2, convert::verdict(r.verdict) as i32);
        self.text(3, r.ruleset.name());
        self.varint(4, u64::from(r.repetitions));
        self.varint(5, u64::from(convert::u32_of(r.cycle_start)));
        self.varint(6, u64::from(convert::u32_of(r.cycle_length)));
        if wanted.detail != Detail::Verdict {
            // Without a cycle there are no patterns to report.
            if r.verdict != Verdict::NoRepetition {
                self.message(7, |w| w.side(&r.red));
                self.message(8, |w| w.side(&r.black));
            }
        }
        match wanted.detail {
            Detail::Verdict => {}
            Detail::Summary => {
                for m in &r.moves {
                    self.message(9, |w| w.move_summary(m));
                }
                for a in &r.articles {
                    self.message(10, |w| w.article(*a, None));
                }
            }
            Detail::Full => {
                SAID.with_borrow_mut(|(zh, en)| {
                    for (said, lang) in [(&mut *zh, Lang::Zh), (&mut *en, Lang::En)] {
                        if wanted.says(lang) {
                            said.say(r, lang);
                        } else {
                            said.clear();
                        }
                    }
                    for (i, m) in r.moves.iter().enumerate() {
                        if i < wanted.detailed_moves {
                            self.message(9, |w| w.move_report(m, i, zh, en));
                        } else {
                            self.message(9, |w| w.move_summary(m));
                        }
                    }
                    for a in &r.articles {
                        self.message(10, |w| w.article(*a, Some(wanted)));
                    }
                    self.text(11, zh.explanation());
                    self.text(12, en.explanation());
                    zh.shrink_to(KEPT_TEXT);
                    en.shrink_to(KEPT_TEXT);
                });
            }
        }
        self.message(13, |w| {
            w.varint(1, r.search.nodes);
            w.varint(2, r.search.max_nodes);
            w.bool(3, r.search.budget_exhausted);
        });
        if wanted.detail == Detail::Full {
            let abridged = r.moves.len().saturating_sub(wanted.detailed_moves);
            self.varint(14, u64::from(convert::u32_of(abridged)));
        }
    }

    fn side(&mut self, s: &SideReport) {
        self.enumeration(1, convert::color(s.color) as i32);
        self.enumeration(2, convert::pattern(s.pattern) as i32);
        self.text(3, s.pattern.chinese());
        self.bool(4, s.forbidden);
        self.bool(5, s.told_to_change);
    }

    /// A move as at DETAIL_SUMMARY: ply, side, notation, kind and round.
    fn move_summary(&mut self, m: &MoveReport) {
        self.varint(1, u64::from(convert::u32_of(m.ply)));
        self.enumeration(2, convert::color(m.color) as i32);
        self.text(3, &m.iccs);
        self.text(4, &m.chinese);
        self.enumeration(5, convert::move_kind(m.kind) as i32);
        self.varint(12, u64::from(m.round));
    }

    /// Whole move `i`, with its sentences in each language (empty in one not wanted).
    fn move_report(&mut self, m: &MoveReport, i: usize, zh: &Said, en: &Said) {
        self.varint(1, u64::from(convert::u32_of(m.ply)));
        self.enumeration(2, convert::color(m.color) as i32);
        self.text(3, &m.iccs);
        self.text(4, &m.chinese);
        self.enumeration(5, convert::move_kind(m.kind) as i32);
        if !m.idle_kinds.is_empty() {
            // Packed; every kind is one byte.
            encode_key(6, WireType::LengthDelimited, &mut self.buf);
            let kinds = m.idle_kinds.iter().map(|k| convert::idle_kind(*k) as u64);
            let len: usize = kinds.clone().map(encoded_len_varint).sum();
            encode_varint(len as u64, &mut self.buf);
            for k in kinds {
                encode_varint(k, &mut self.buf);
            }
        }
        for (j, t) in m.targets.iter().enumerate() {
            self.message(7, |w| w.target(t, zh.reason(i, j), en.reason(i, j)));
        }
        self.message(8, |w| w.search(&m.mate_search));
        self.text(9, zh.note(i));
        self.text(10, en.note(i));
        self.line(11, &m.mate_line);
        self.varint(12, u64::from(m.round));
        self.message(13, |w| w.search(&m.gain_search));
    }

    fn target(&mut self, t: &Target, reason_zh: &str, reason_en: &str) {
        self.square(1, t.square);
        self.message(2, |w| w.piece(t.piece));
        for s in &t.attackers {
            self.square(3, *s);
        }
        for d in &t.defenders {
            self.message(4, |w| w.defender(d));
        }
        self.enumeration(5, convert::protection(t.protection) as i32);
        self.int32(6, t.gain);
        self.enumeration(7, convert::means(t.means) as i32);
        self.bool(8, t.new);
        self.bool(9, t.counted);
        self.text(10, reason_en);
        self.text(11, reason_zh);
        self.bool(12, t.joint);
        self.line(13, &t.line);
        for s in &t.participants {
            self.square(14, *s);
        }
    }

    fn defender(&mut self, d: &Defender) {
        self.square(1, d.square);
        self.message(2, |w| w.piece(d.piece));
        self.bool(3, d.hidden);
        self.bool(4, d.real);
    }

    fn piece(&mut self, p: Piece) {
        self.enumeration(1, convert::color(p.color) as i32);
        self.enumeration(2, convert::role(p.role) as i32);
        let mut chinese = [0; 4];
        self.text(3, p.chinese().encode_utf8(&mut chinese));
    }

    fn search(&mut self, s: &SearchReport) {
        self.varint(1, u64::from(s.max_plies));
        self.varint(2, s.max_nodes);
        self.varint(3, s.nodes);
        self.bool(4, s.budget_exhausted);
    }

    /// A line: unset when it has no moves.
    fn line(&mut self, tag: u32, line: &[LineMove]) {
        if line.is_empty() {
            return;
        }
        self.message(tag, |w| {
            for m in line {
                w.entry(1, m.iccs.as_bytes());
            }
            for m in line {
                w.entry(2, m.chinese.as_bytes());
            }
        });
    }

    /// An article: its id, edition and number, with its texts in the languages `full` wants
    /// (`None`: without texts, DETAIL_SUMMARY).
    fn article(&mut self, a: ArticleId, full: Option<Wanted>) {
        let prefix = a.edition.profile().cite_prefix;
        if !prefix.is_empty() || !a.number.is_empty() {
            encode_key(1, WireType::LengthDelimited, &mut self.buf);
            encode_varint((prefix.len() + a.number.len()) as u64, &mut self.buf);
            self.buf.extend_from_slice(prefix.as_bytes());
            self.buf.extend_from_slice(a.number.as_bytes());
        }
        if let Some(wanted) = full {
            let text = a.text();
            if wanted.says(Lang::Zh) {
                self.text(2, text.zh);
            }
            if wanted.says(Lang::En) {
                self.text(3, text.en);
            }
        }
        self.text(4, a.edition.name());
        self.text(5, a.number);
    }
}
