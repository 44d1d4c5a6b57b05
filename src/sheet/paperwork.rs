//! The paperwork a printed ruling carries for the event's records: the event, the round and the
//! board, the players, the time of the ruling and the arbiter, each filled from the game record's
//! tags or given by the arbiter, and a blank line to fill by hand otherwise.

/// The paperwork fields of a ruling sheet (blank: a line to fill in by hand).
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Paperwork {
    /// The event (赛事).
    pub event: String,
    /// The round of the event (轮次).
    pub round: String,
    /// The board (台次).
    pub board: String,
    /// Red's player (and team).
    pub red: String,
    /// Black's player (and team).
    pub black: String,
    /// When the ruling was given (裁决时间).
    pub time: String,
    /// The arbiter (裁判员).
    pub arbiter: String,
}

impl Paperwork {
    /// The fields a game record's tags give: `Event`, `Round`, `Board` (or `Table`), `Red` and
    /// `Black` with `RedTeam` and `BlackTeam` when given.
    pub fn from_tags(tags: &[(String, String)]) -> Paperwork {
        let tag = |names: &[&str]| {
            names
                .iter()
                .find_map(|n| {
                    tags.iter()
                        .find(|(k, v)| k.eq_ignore_ascii_case(n) && !v.trim().is_empty())
                })
                .map_or(String::new(), |(_, v)| v.trim().to_string())
        };
        let player = |name: &str, team: &str| match (tag(&[name]), tag(&[team])) {
            (p, t) if t.is_empty() => p,
            (p, t) if p.is_empty() => t,
            (p, t) => format!("{p} ({t})"),
        };
        Paperwork {
            event: tag(&["Event"]),
            round: tag(&["Round"]),
            board: tag(&["Board", "Table"]),
            red: player("Red", "RedTeam"),
            black: player("Black", "BlackTeam"),
            time: String::new(),
            arbiter: tag(&["Arbiter"]),
        }
    }

    /// These fields, each blank one taken from `fallback`.
    pub fn or(self, fallback: Paperwork) -> Paperwork {
        let pick = |mine: String, theirs: String| {
            if mine.trim().is_empty() { theirs } else { mine }
        };
        Paperwork {
            event: pick(self.event, fallback.event),
            round: pick(self.round, fallback.round),
            board: pick(self.board, fallback.board),
            red: pick(self.red, fallback.red),
            black: pick(self.black, fallback.black),
            time: pick(self.time, fallback.time),
            arbiter: pick(self.arbiter, fallback.arbiter),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_fill_the_paperwork_and_the_arbiters_fields_come_first() {
        let tags: Vec<(String, String)> = [
            ("Event", "全国象棋个人赛"),
            ("round", "7"),
            ("Table", "3"),
            ("Red", "甲"),
            ("RedTeam", "北京"),
            ("Black", "乙"),
            ("BlackTeam", " "),
        ]
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
        let p = Paperwork::from_tags(&tags);
        assert_eq!(p.event, "全国象棋个人赛");
        assert_eq!(p.round, "7");
        assert_eq!(p.board, "3");
        assert_eq!(p.red, "甲 (北京)");
        assert_eq!(p.black, "乙");
        assert!(p.time.is_empty() && p.arbiter.is_empty());
        let given = Paperwork {
            board: "5".into(),
            arbiter: "丙".into(),
            ..Paperwork::default()
        };
        let both = given.or(p);
        assert_eq!((both.board.as_str(), both.arbiter.as_str()), ("5", "丙"));
        assert_eq!(both.event, "全国象棋个人赛");
    }
}
