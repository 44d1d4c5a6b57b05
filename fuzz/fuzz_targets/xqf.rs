//! Any bytes as an XQF file. Reading never panics; a game that reads is written again (plain, and
//! encrypted in several versions with keys taken from the input) and reads back with the same
//! start and moves, and the same tags, each a prefix of what was read: a field holds so many
//! bytes, and text that is not GBK grows when written again (U+FFFD takes four bytes).
#![no_main]
use libfuzzer_sys::fuzz_target;
use qili::record::xqf::{self, Keys, Options};

fuzz_target!(|data: &[u8]| {
    let Ok(game) = xqf::read(data) else {
        return;
    };
    assert_eq!(game.moves.len(), game.texts.len());
    assert_eq!(game.positions().len(), game.moves.len() + 1);
    let key = |i: usize| data.get(i).copied().unwrap_or(0);
    for version in [10, 11, 12, 18] {
        let options = Options {
            version,
            keys: Keys {
                mask: key(3),
                or: [key(8), key(9), key(10), key(11)],
                xy: key(13),
                xyf: key(14),
                xyt: key(15),
            },
            comments: vec![(0, "注".to_string()), (game.moves.len(), "终".to_string())],
        };
        let bytes = xqf::write(&game, &options).expect("a game that reads can be written");
        let back = xqf::read(&bytes)
            .unwrap_or_else(|e| panic!("written as version {version}, not read back: {e}"));
        assert_eq!(back.start, game.start, "version {version}");
        assert_eq!(back.start.turn(), game.start.turn(), "version {version}");
        assert_eq!(back.moves, game.moves, "version {version}");
        let names =
            |g: &qili::record::Game| g.tags.iter().map(|(k, _)| k.clone()).collect::<Vec<_>>();
        assert_eq!(names(&back), names(&game), "version {version}");
        for ((tag, b), (_, g)) in back.tags.iter().zip(&game.tags) {
            assert!(
                g.starts_with(b.as_str()),
                "version {version}: {tag} {g:?} read back as {b:?}"
            );
        }
    }
});
