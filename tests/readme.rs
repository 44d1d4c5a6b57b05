//! Every `$ qili …` example of README.md runs as shown. Each ```` ```console ```` block's
//! commands run with bash from the repository root, the built `qili` first on PATH, and what they
//! print (standard output and error together) must be the lines shown under them. A line `…`
//! stands for any lines; the numbers of `"timeMs":` and JUnit `time="…"` are not compared.
//! When the output changes on purpose (a ruling's text, say), `QILI_BLESS=1 cargo test --release
//! --test it readme` writes the new output into README.md, keeping each `…`.
//!
//! The grpcurl session is checked too, without grpcurl: `describe qili.v1.AdjudicateRequest`
//! against the proto file, and the `ListRulesets` and `Adjudicate` calls against a `qili serve`
//! started on a free port, their JSON compared without the fields grpcurl leaves out (defaults).
//!
//! Why not trycmd, which checks console blocks of markdown too: it runs one program per `$` line,
//! without a shell, and the README's examples are written for a reader at a shell (`; echo "exit
//! $?"`, `> /dev/null; cat /tmp/qili-cases.xml`, `GITHUB_ACTIONS=true qili …`); with trycmd they
//! would show `? 1` status lines and `[..]` in place of times, and the JUnit file could not be
//! shown as the reader gets it. The grpcurl half (below) it cannot do at all: it needs grpcurl
//! and a live server, and compares proto3 JSON without its defaults. What trycmd would replace is
//! the hundred lines of `examples`, `matches`, `blessed` and `run`.

use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};
use std::path::Path;
use std::process::Command;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// Held by each test that reads README.md and, when blessing, writes it.
static README: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// One `$ qili …` line and the output lines under it.
struct Example {
    /// Index of the `$` line in README.md.
    line: usize,
    command: String,
    /// Index of the first output line, and how many there are.
    output: std::ops::Range<usize>,
}

impl Example {
    /// The example whose command is on line `i`: its output runs to the next `$` line or the end
    /// of the block.
    fn at(lines: &[&str], i: usize, command: &str) -> Example {
        let start = i + 1;
        let mut end = start;
        while end < lines.len() && !lines[end].starts_with("$ ") && lines[end] != "```" {
            end += 1;
        }
        Example {
            line: i,
            command: command.to_string(),
            output: start..end,
        }
    }
}

/// The `$ grpcurl` lines of the plain blocks, with their output lines. A command that reads its
/// messages from a here-document (`-d @ … <<'EOF'`) gets them, one JSON message a line, in its
/// command after a newline; its output starts after the `EOF` line.
fn grpcurl_examples(lines: &[&str]) -> Vec<Example> {
    let mut out = Vec::new();
    let mut in_block = false;
    for (i, l) in lines.iter().enumerate() {
        if l.starts_with("```") {
            in_block = !in_block;
            continue;
        }
        if let Some(command) = l.strip_prefix("$ grpcurl ").filter(|_| in_block) {
            let mut example = Example::at(lines, i, command);
            if command.ends_with("<<'EOF'")
                && let Some(end) = lines[i + 1..].iter().position(|l| *l == "EOF")
            {
                let input = &lines[i + 1..i + 1 + end];
                example.command = format!("{command}\n{}", input.join("\n"));
                example.output.start = i + 2 + end;
            }
            out.push(example);
        }
    }
    out
}

/// The examples of every console block, and every `$ qili` line outside one.
fn examples(lines: &[&str]) -> (Vec<Example>, Vec<usize>) {
    let mut out = Vec::new();
    let mut stray = Vec::new();
    let mut in_console = false;
    let mut in_other = false;
    let mut i = 0;
    while i < lines.len() {
        let l = lines[i];
        if l.starts_with("```") {
            if in_console || in_other {
                (in_console, in_other) = (false, false);
            } else if l.trim() == "```console" {
                in_console = true;
            } else {
                in_other = true;
            }
            i += 1;
            continue;
        }
        match l.strip_prefix("$ ") {
            Some(command) if in_console => {
                let example = Example::at(lines, i, command);
                i = example.output.end;
                out.push(example);
                continue;
            }
            Some(command) if command.starts_with("qili ") => stray.push(i),
            _ => {}
        }
        i += 1;
    }
    (out, stray)
}

/// The output with the times, which change from run to run, left out.
fn normalize(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    loop {
        let next = ["\"timeMs\":", " time=\""]
            .iter()
            .filter_map(|k| rest.find(k).map(|at| (at, *k)))
            .min();
        let Some((at, key)) = next else {
            out.push_str(rest);
            return out;
        };
        out.push_str(&rest[..at + key.len()]);
        out.push('…');
        rest = rest[at + key.len()..].trim_start_matches(|c: char| {
            c.is_ascii_digit() || matches!(c, '.' | 'e' | 'E' | '-' | '+')
        });
    }
}

/// Whether `actual` lines are what `expected` shows, `…` lines standing for any lines.
fn matches(expected: &[String], actual: &[String]) -> bool {
    match expected.split_first() {
        None => actual.is_empty(),
        Some((e, rest)) if e.trim() == "…" => {
            (0..=actual.len()).any(|skip| matches(rest, &actual[skip..]))
        }
        Some((e, rest)) => actual
            .split_first()
            .is_some_and(|(a, more)| normalize(a) == normalize(e) && matches(rest, more)),
    }
}

/// The lines to write for a blessed example: the actual output, cut where the shown one is cut.
fn blessed(expected: &[String], actual: &[String]) -> Vec<String> {
    let Some(cut) = expected.iter().position(|l| l.trim() == "…") else {
        return actual.to_vec();
    };
    let tail = expected.len() - cut - 1;
    if actual.len() < cut + tail {
        return actual.to_vec();
    }
    let mut out = actual[..cut].to_vec();
    out.push(expected[cut].clone());
    out.extend_from_slice(&actual[actual.len() - tail..]);
    out
}

fn run(command: &str) -> Vec<String> {
    let bin = Path::new(env!("CARGO_BIN_EXE_qili"))
        .parent()
        .expect("the binary's folder");
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let o = Command::new("bash")
        .args(["-c", &format!("exec 2>&1; {command}")])
        .current_dir(ROOT)
        .env("PATH", path)
        .env_remove("GITHUB_ACTIONS")
        .output()
        .expect("run bash");
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn every_qili_example_in_the_readme_prints_what_it_shows() {
    let _readme = README.lock().unwrap_or_else(|e| e.into_inner());
    let path = Path::new(ROOT).join("README.md");
    let text = std::fs::read_to_string(&path).expect("README.md");
    let lines: Vec<&str> = text.lines().collect();
    let (found, stray) = examples(&lines);
    assert!(
        stray.is_empty(),
        "`$ qili` examples outside a ```console block are not checked: README.md lines {:?}",
        stray.iter().map(|i| i + 1).collect::<Vec<_>>()
    );
    assert!(found.len() >= 8, "only {} examples found", found.len());

    let bless = std::env::var_os("QILI_BLESS").is_some();
    let mut replaced: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    let mut stale = Vec::new();
    // From the end, so that replacing one example's output does not move the others.
    for example in found.iter().rev() {
        let expected: Vec<String> = lines[example.output.clone()]
            .iter()
            .map(|l| l.to_string())
            .collect();
        let actual = run(&example.command);
        if matches(&expected, &actual) {
            continue;
        }
        if bless {
            replaced.splice(example.output.clone(), blessed(&expected, &actual));
        } else {
            stale.push(format!(
                "README.md line {}: $ {}\n--- shown\n{}\n--- printed\n{}",
                example.line + 1,
                example.command,
                expected.join("\n"),
                actual.join("\n")
            ));
        }
    }
    if bless {
        std::fs::write(&path, replaced.join("\n") + "\n").expect("write README.md");
    }
    assert!(
        stale.is_empty(),
        "README examples print something else (QILI_BLESS=1 cargo test --release --test it readme \
         writes what they print):\n\n{}",
        stale.join("\n\n")
    );
}

#[test]
fn the_example_checker_matches_elisions_and_ignores_times() {
    let v = |s: &[&str]| s.iter().map(|l| l.to_string()).collect::<Vec<_>>();
    assert!(matches(&v(&["a", "…", "d"]), &v(&["a", "b", "c", "d"])));
    assert!(matches(&v(&["a", "…", "d"]), &v(&["a", "d"])));
    assert!(!matches(&v(&["a", "…", "d"]), &v(&["a", "b"])));
    assert!(!matches(&v(&["a", "b"]), &v(&["a", "b", "c"])));
    assert!(matches(
        &v(&[r#"{"id":"x","timeMs":0.1}"#]),
        &v(&[r#"{"id":"x","timeMs":12.75}"#])
    ));
    assert!(!matches(&v(&[r#"{"id":"x"}"#]), &v(&[r#"{"id":"y"}"#])));
    assert_eq!(
        blessed(&v(&["a", "…", "z"]), &v(&["1", "2", "3", "4"])),
        v(&["1", "…", "4"])
    );
    let lines = [
        "```console",
        "$ qili perft 1",
        "44",
        "```",
        "$ qili stray",
        "```",
        "$ qili in-plain-block",
        "```",
    ];
    let (found, stray) = examples(&lines);
    assert_eq!(found.len(), 1);
    assert_eq!(
        (found[0].command.as_str(), found[0].output.clone()),
        ("qili perft 1", 2..3)
    );
    assert_eq!(stray, [4, 6]);
}

/// JSON that keeps its keys in order (grpcurl's order, the proto's), for comparing and writing.
#[derive(Clone, Debug, PartialEq)]
enum Json {
    Null,
    Bool(bool),
    Number(String),
    String(String),
    Array(Vec<Json>),
    Object(Vec<(String, Json)>),
}

impl<'de> Deserialize<'de> for Json {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Json, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Json;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("JSON")
            }
            fn visit_unit<E>(self) -> Result<Json, E> {
                Ok(Json::Null)
            }
            fn visit_bool<E>(self, b: bool) -> Result<Json, E> {
                Ok(Json::Bool(b))
            }
            fn visit_u64<E>(self, n: u64) -> Result<Json, E> {
                Ok(Json::Number(n.to_string()))
            }
            fn visit_i64<E>(self, n: i64) -> Result<Json, E> {
                Ok(Json::Number(n.to_string()))
            }
            fn visit_f64<E>(self, n: f64) -> Result<Json, E> {
                Ok(Json::Number(n.to_string()))
            }
            fn visit_str<E>(self, s: &str) -> Result<Json, E> {
                Ok(Json::String(s.to_string()))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut a: A) -> Result<Json, A::Error> {
                let mut out = Vec::new();
                while let Some(v) = a.next_element()? {
                    out.push(v);
                }
                Ok(Json::Array(out))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut a: A) -> Result<Json, A::Error> {
                let mut out = Vec::new();
                while let Some(kv) = a.next_entry()? {
                    out.push(kv);
                }
                Ok(Json::Object(out))
            }
        }
        d.deserialize_any(V)
    }
}

impl Serialize for Json {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Json::Null => s.serialize_unit(),
            Json::Bool(b) => s.serialize_bool(*b),
            Json::Number(n) => match (n.parse::<u64>(), n.parse::<i64>()) {
                (Ok(u), _) => s.serialize_u64(u),
                (_, Ok(i)) => s.serialize_i64(i),
                _ => s.serialize_f64(n.parse().unwrap_or(0.0)),
            },
            Json::String(t) => s.serialize_str(t),
            Json::Array(items) => {
                let mut seq = s.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(item)?;
                }
                seq.end()
            }
            Json::Object(entries) => {
                let mut map = s.serialize_map(Some(entries.len()))?;
                for (k, v) in entries {
                    map.serialize_entry(k, v)?;
                }
                map.end()
            }
        }
    }
}

impl Json {
    /// Without the fields proto3 JSON leaves out when they hold their default (grpcurl's output).
    fn without_defaults(&self) -> Json {
        let is_default = |v: &Json| match v {
            Json::Bool(false) | Json::Null => true,
            Json::Number(n) => n.parse::<f64>() == Ok(0.0),
            Json::String(t) => t.is_empty() || t == "0" || t.ends_with("_UNSPECIFIED"),
            Json::Array(a) => a.is_empty(),
            Json::Object(_) | Json::Bool(true) => false,
        };
        match self {
            Json::Array(items) => Json::Array(items.iter().map(Json::without_defaults).collect()),
            Json::Object(entries) => Json::Object(
                entries
                    .iter()
                    .filter(|(_, v)| !is_default(v))
                    .map(|(k, v)| (k.clone(), v.without_defaults()))
                    .collect(),
            ),
            other => other.clone(),
        }
    }
}

/// The JSON lines of a grpcurl answer, as grpcurl prints them (no defaults).
fn grpcurl_json<T: serde::Serialize>(message: &T) -> Vec<String> {
    // Through the text, not serde_json::Value, whose maps would sort the keys.
    let text = serde_json::to_string(message).expect("to JSON");
    let json: Json = serde_json::from_str(&text).expect("JSON");
    serde_json::to_string_pretty(&json.without_defaults())
        .expect("JSON text")
        .lines()
        .map(str::to_string)
        .collect()
}

/// What grpcurl's `describe` prints for `message` of the proto file.
fn described(proto: &str, message: &str) -> Vec<String> {
    const SCALARS: [&str; 9] = [
        "string", "bool", "int32", "int64", "uint32", "uint64", "double", "float", "bytes",
    ];
    let lines: Vec<&str> = proto.lines().collect();
    let at = lines
        .iter()
        .position(|l| *l == format!("message {message} {{"))
        .expect("the message is in the proto");
    let mut comments = at;
    while comments > 0 && lines[comments - 1].starts_with("//") {
        comments -= 1;
    }
    let mut out = vec![format!("qili.v1.{message} is a message:")];
    out.extend(lines[comments..=at].iter().map(|l| l.to_string()));
    for l in &lines[at + 1..] {
        if *l == "}" {
            out.push("}".to_string());
            break;
        }
        let words: Vec<&str> = l.split_whitespace().collect();
        let type_at = usize::from(words.first() == Some(&"repeated"));
        let qualified = match words.get(type_at) {
            Some(t) if !l.trim_start().starts_with("//") && !SCALARS.contains(t) => {
                l.replacen(&format!(" {t} "), &format!(" .qili.v1.{t} "), 1)
            }
            _ => l.to_string(),
        };
        out.push(qualified);
    }
    out
}

#[test]
fn the_grpcurl_session_shows_what_the_service_answers() {
    let _readme = README.lock().unwrap_or_else(|e| e.into_inner());
    use qili::service::pb;
    let path = Path::new(ROOT).join("README.md");
    let text = std::fs::read_to_string(&path).expect("README.md");
    let lines: Vec<&str> = text.lines().collect();
    let found = grpcurl_examples(&lines);
    let proto = std::fs::read_to_string(Path::new(ROOT).join("proto/qili/v1/qili.proto"))
        .expect("the proto");
    let server = super::common::Server::start();
    let runtime = tokio::runtime::Runtime::new().expect("runtime");
    let mut client = runtime.block_on(async {
        pb::qili_client::QiliClient::new(super::common::channel(&server.url()).await)
    });
    let bless = std::env::var_os("QILI_BLESS").is_some();
    let mut replaced: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    let mut stale = Vec::new();
    let mut checked = 0;
    for example in found.iter().rev() {
        let expected: Vec<String> = lines[example.output.clone()]
            .iter()
            .map(|l| l.to_string())
            .collect();
        let command = &example.command;
        let actual: Vec<String> = if let Some(message) = command.split(" describe qili.v1.").nth(1)
        {
            described(&proto, message.trim())
        } else if command.ends_with("qili.v1.Qili/ListRulesets") {
            let answer = runtime
                .block_on(client.list_rulesets(pb::ListRulesetsRequest {}))
                .expect("ListRulesets");
            grpcurl_json(answer.get_ref())
        } else if let Some((call, input)) = command.split_once('\n') {
            assert!(
                call.contains("qili.v1.Qili/Watch"),
                "a here-document for a call the checker does not know: {call}"
            );
            let messages: Vec<pb::WatchRequest> = input
                .lines()
                .map(|l| serde_json::from_str(l).expect("a WatchRequest"))
                .collect();
            runtime.block_on(async {
                let stream = client
                    .watch(tokio_stream::iter(messages))
                    .await
                    .expect("Watch");
                let mut stream = stream.into_inner();
                let mut out = Vec::new();
                while let Some(status) = stream.message().await.expect("an answer") {
                    out.extend(grpcurl_json(&status));
                }
                out
            })
        } else if command.ends_with("qili.v1.Qili/Status") {
            let body = command
                .split("-d '")
                .nth(1)
                .and_then(|rest| rest.split('\'').next())
                .expect("a -d '…' request");
            let request: pb::AdjudicateRequest = serde_json::from_str(body).expect("a request");
            let answer = runtime.block_on(client.status(request)).expect("Status");
            grpcurl_json(answer.get_ref())
        } else if command.ends_with("qili.v1.Qili/Adjudicate") {
            let body = command
                .split("-d '")
                .nth(1)
                .and_then(|rest| rest.split('\'').next())
                .expect("a -d '…' request");
            let request: pb::AdjudicateRequest = serde_json::from_str(body).expect("a request");
            match runtime.block_on(client.adjudicate(request)) {
                Ok(answer) => grpcurl_json(answer.get_ref()),
                Err(status) => vec![
                    "ERROR:".to_string(),
                    format!("  Code: {:?}", status.code()),
                    format!("  Message: {}", status.message()),
                ],
            }
        } else {
            // `list` and the health check show fixed names.
            continue;
        };
        checked += 1;
        let same = if actual.first().is_some_and(|l| l.starts_with('{')) {
            // One JSON message or several (a stream's answers), compared without the defaults.
            let messages = |text: &str| -> Result<Vec<Json>, serde_json::Error> {
                serde_json::Deserializer::from_str(text)
                    .into_iter::<Json>()
                    .map(|j| j.map(|j| j.without_defaults()))
                    .collect()
            };
            messages(&expected.join("\n"))
                .is_ok_and(|e| e == messages(&actual.join("\n")).expect("JSON"))
        } else {
            expected == actual
        };
        if same {
            continue;
        }
        if bless {
            replaced.splice(example.output.clone(), actual);
        } else {
            stale.push(format!(
                "README.md line {}: $ grpcurl {command}\n--- shown\n{}\n--- answered\n{}",
                example.line + 1,
                expected.join("\n"),
                actual.join("\n")
            ));
        }
    }
    assert!(checked >= 4, "only {checked} grpcurl examples checked");
    if bless {
        std::fs::write(&path, replaced.join("\n") + "\n").expect("write README.md");
    }
    assert!(
        stale.is_empty(),
        "the README's grpcurl session is out of date (QILI_BLESS=1 cargo test --release --test \
         it readme writes the answers):\n\n{}",
        stale.join("\n\n")
    );
}

#[test]
fn the_changelog_has_a_section_for_this_version_with_its_ruling_changes() {
    let text = std::fs::read_to_string(Path::new(ROOT).join("CHANGELOG.md")).expect("CHANGELOG.md");
    let version = env!("CARGO_PKG_VERSION");
    let top = text
        .lines()
        .find(|l| l.starts_with("## ") && l[3..].starts_with(|c: char| c.is_ascii_digit()))
        .expect("a release section");
    assert!(
        top.starts_with(&format!("## {version} ")) || top == format!("## {version}"),
        "the topmost release of CHANGELOG.md is {top:?}, but Cargo.toml says {version}"
    );
    let section = text
        .split(top)
        .nth(1)
        .and_then(|rest| rest.split("\n## ").next());
    assert!(
        section.is_some_and(|s| s.contains("\n### Ruling changes\n")),
        "{top:?} has no \"### Ruling changes\""
    );
}

#[test]
fn the_ci_section_pins_the_tag_of_this_version() {
    // README's "Using qili in CI" installs `--tag vX.Y.Z` and caches by `QILI_TAG: vX.Y.Z`: both
    // the tag of the version being released (CHANGELOG's topmost section names it), so a version
    // bump that forgets the README fails here.
    let readme = std::fs::read_to_string(Path::new(ROOT).join("README.md")).expect("README.md");
    let section = readme
        .split("\n## Using qili in CI\n")
        .nth(1)
        .and_then(|rest| rest.split("\n## ").next())
        .expect("a section \"Using qili in CI\"");
    let tag = format!("v{}", env!("CARGO_PKG_VERSION"));
    let pins: Vec<&str> = section
        .lines()
        .filter_map(|l| {
            let (_, after) = l
                .split_once("--tag ")
                .or_else(|| l.split_once("QILI_TAG: "))?;
            after.split_whitespace().next()
        })
        .filter(|pin| !pin.starts_with('"'))
        .collect();
    assert_eq!(pins, [tag.as_str(), tag.as_str()], "{section}");
    let changelog =
        std::fs::read_to_string(Path::new(ROOT).join("CHANGELOG.md")).expect("CHANGELOG.md");
    assert!(
        changelog.contains(&format!("`{tag}`")),
        "CHANGELOG.md does not name the tag {tag}"
    );
}
