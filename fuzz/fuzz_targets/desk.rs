//! The desk's path: any bytes as a record, as `/desk/ruling` and `qili judge --record --format
//! html` read one, cut into a dispute, ruled on and written as the ruling sheet (the page's
//! fragment and the printable document), asserting that the HTML is clean: nothing from the
//! record (tags, comments, names, the file's name) reaches it as markup.
//!
//! Byte 0: bits 0–1 the language (zh, en, both), bits 2–3 the game (0: the only one, else 1–3),
//! bits 4–7 how many of the following bytes are the record's file name; the rest is the record.
#![no_main]
use libfuzzer_sys::fuzz_target;
use qili::record::dispute::Dispute;
use qili::referee::forbidden_after;
use qili::rules::{self, Options};
use qili::sheet::{self, Lang, Paperwork};

fuzz_target!(|data: &[u8]| {
    let Some((&flags, rest)) = data.split_first() else {
        return;
    };
    let name_len = usize::from(flags >> 4).min(rest.len());
    let (name, record) = rest.split_at(name_len);
    let name = String::from_utf8_lossy(name);
    let lang = [Lang::Zh, Lang::En, Lang::Both, Lang::Both][usize::from(flags & 3)];
    let game = match (flags >> 2) & 3 {
        0 => None,
        n => Some(usize::from(n)),
    };
    let dispute = match Dispute::from_record(&name, record, game, None) {
        Ok(d) => d,
        Err(e) => {
            let _ = e.to_string();
            return;
        }
    };
    if dispute.moves.len() > qili_fuzz::MAX_MOVES {
        return; // the service refuses these
    }
    let options = Options {
        texts: rules::Texts::NONE,
        ..Options::default()
    };
    let ruling = rules::rule(&dispute.start, &dispute.moves, &options);
    let (_, forbidden) = forbidden_after(dispute.start, &dispute.moves, options)
        .expect("a record's moves are legal");
    let paperwork = Paperwork::default();
    // The page's window of diagrams (the service draws 32) for the fragment; every diagram for
    // the printable document.
    let window = sheet::Diagrams { from: 0, most: 32 };
    let fragment = sheet::ruling_fragment(&ruling, &dispute, &paperwork, &forbidden, window, lang);
    qili_fuzz::assert_clean_html(&fragment);
    let document = sheet::ruling_document(
        &ruling,
        &dispute,
        &paperwork,
        &forbidden,
        sheet::Diagrams::ALL,
        lang,
    );
    qili_fuzz::assert_clean_html(&document);
});
