//! The reply the server writes from the library's ruling (`pb::Reply`) is, byte for byte, what
//! prost writes for the generated `pb::Ruling` built by `convert::reply`: every corpus case and
//! every platform-mix request, at every detail level and language, whole and abridged.

use prost::Message;
use qili::service::convert::{self, MAX_DETAILED_MOVES, Wanted};
use qili::service::pb;
use std::path::PathBuf;

/// Every request: the corpus's cases, then the platform mix's.
fn requests() -> Vec<pb::AdjudicateRequest> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<PathBuf> = std::fs::read_dir(root.join("cases"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .collect();
    files.sort();
    let mut requests: Vec<pb::AdjudicateRequest> = qili::corpus::load_all(&files)
        .unwrap()
        .iter()
        .map(convert::case_request)
        .collect();
    assert!(requests.len() > 400, "the corpus: {}", requests.len());
    let mix = std::fs::read_to_string(root.join("benches/data/platform-mix.jsonl")).unwrap();
    for line in mix.lines() {
        requests.push(qili::service::decode_json(line.as_bytes()).unwrap());
    }
    requests
}

#[test]
fn the_written_reply_is_prosts_byte_for_byte() {
    let details = [pb::Detail::Full, pb::Detail::Summary, pb::Detail::Verdict];
    let languages = [pb::Language::Both, pb::Language::Zh, pb::Language::En];
    let (mut compared, mut abridged, mut long) = (0, 0, 0);
    for r in requests() {
        let (request, request_id, _) = convert::into_request(r).unwrap();
        let Ok(mut ruling) = qili::request::adjudicate(&request) else {
            continue;
        };
        // The first move with a target gets 300 of them once: a message over 16 KiB.
        if long == 0
            && let Some(m) = ruling.moves.iter_mut().find(|m| !m.targets.is_empty())
        {
            let t = m.targets[0].clone();
            m.targets.extend(std::iter::repeat_n(t, 300));
        }
        // Whole (as served, and without the bound) and abridged after two moves.
        for detailed_moves in [MAX_DETAILED_MOVES, usize::MAX, 2] {
            for detail in details {
                for language in languages {
                    let wanted = Wanted {
                        detail,
                        language,
                        detailed_moves,
                    };
                    let written = pb::Reply::new(&ruling, &request_id, wanted);
                    let generated = convert::reply(ruling.clone(), request_id.clone(), wanted);
                    let expected = generated.encode_to_vec();
                    assert_eq!(
                        written.as_bytes(),
                        expected.as_slice(),
                        "{request_id} {detail:?} {language:?} {detailed_moves}"
                    );
                    assert_eq!(written.encoded_len(), expected.len());
                    assert_eq!(written.encode_to_vec(), expected);
                    compared += 1;
                    abridged += usize::from(generated.abridged_moves > 0);
                    // A move whose length takes three bytes (grown below).
                    long += usize::from(generated.moves.iter().any(|m| m.encoded_len() >= 16_384));

                    // The stream's answer around it, as prost writes the generated one.
                    let streamed = pb::StreamReply {
                        request_id: request_id.clone(),
                        result: Ok(written),
                    };
                    let expected = pb::AdjudicateStreamResponse {
                        request_id: request_id.clone(),
                        result: Some(pb::adjudicate_stream_response::Result::Ruling(generated)),
                    }
                    .encode_to_vec();
                    assert_eq!(streamed.encode_to_vec(), expected, "{request_id}");
                    assert_eq!(streamed.encoded_len(), expected.len());
                }
            }
        }
    }
    // Every level was compared, abridged moves and messages whose length takes three bytes
    // included.
    assert!(compared > 20_000, "{compared} replies compared");
    assert!(abridged > 0 && long > 0, "{abridged} abridged, {long} long");
}

#[test]
fn a_streamed_error_is_written_as_prost_writes_it() {
    for (request_id, ply) in [("", None), ("x", Some(0)), ("id-7", Some(300))] {
        let error = pb::Error {
            code: pb::ErrorCode::InvalidArgument.into(),
            field: "moves".to_string(),
            ply,
            message: "moves[300] \"h2e9\": illegal".to_string(),
        };
        let streamed = pb::StreamReply {
            request_id: request_id.to_string(),
            result: Err(error.clone()),
        };
        let expected = pb::AdjudicateStreamResponse {
            request_id: request_id.to_string(),
            result: Some(pb::adjudicate_stream_response::Result::Error(error)),
        }
        .encode_to_vec();
        assert_eq!(streamed.encode_to_vec(), expected);
        assert_eq!(streamed.encoded_len(), expected.len());
    }
}

/// A game's status (`Status`, `Watch`) as the server writes it, its ruling written from the
/// library's: prost's bytes for the generated `GameStatus`, at every detail and language, with
/// and without an error set.
#[test]
fn the_written_status_is_prosts_byte_for_byte() {
    let details = [pb::Detail::Full, pb::Detail::Summary, pb::Detail::Verdict];
    let languages = [pb::Language::Both, pb::Language::Zh, pb::Language::En];
    let (mut compared, mut ruled) = (0, 0);
    for r in requests().into_iter().step_by(3) {
        let options = convert::game_options(r.game.as_ref(), qili::lang::Lang::En).unwrap();
        let (request, request_id, _) = convert::into_request(r).unwrap();
        let Ok(referee) = qili::referee::Referee::open(&request, options) else {
            continue;
        };
        let status = referee.status();
        ruled += usize::from(status.ruling.is_some());
        for detail in details {
            for language in languages {
                let wanted = Wanted {
                    detail,
                    language,
                    detailed_moves: MAX_DETAILED_MOVES,
                };
                let mut generated =
                    convert::game_status(status.clone(), request_id.clone(), wanted);
                let mut written =
                    convert::game_status_written(status.clone(), request_id.clone(), wanted);
                let expected = generated.encode_to_vec();
                assert_eq!(written.encode_to_vec(), expected, "{request_id}");
                assert_eq!(written.encoded_len(), expected.len());
                let error = pb::Error {
                    code: pb::ErrorCode::InvalidArgument.into(),
                    field: "moves".to_string(),
                    ply: Some(3),
                    message: "moves[3]: illegal".to_string(),
                };
                generated.error = Some(error.clone());
                written.set_error(error);
                assert_eq!(written.encode_to_vec(), generated.encode_to_vec());
                compared += 1;
            }
        }
    }
    assert!(
        compared > 5_000 && ruled > 100,
        "{compared} compared, {ruled} ruled"
    );
}

/// Over the wire: what a client of a running server reads from Adjudicate, AdjudicateStream and
/// Status is the generated message built from the same ruling, for a fifth of the corpus at every
/// detail level.
#[tokio::test]
async fn a_client_reads_the_generated_messages() {
    use qili::service::pb::qili_client::QiliClient;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(qili::service::serve_with_listener(
        listener,
        qili::service::ServiceConfig::default(),
        async {
            let _ = stopped.await;
        },
    ));
    let mut client = None;
    for _ in 0..50 {
        if let Ok(c) = QiliClient::connect(url.clone()).await {
            client = Some(c);
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    let mut client = client.unwrap();
    let mut compared = 0;
    for base in requests().into_iter().step_by(5).take(120) {
        for detail in [pb::Detail::Full, pb::Detail::Summary, pb::Detail::Verdict] {
            let mut r = base.clone();
            r.detail = detail.into();
            let options = convert::game_options(r.game.as_ref(), qili::lang::Lang::En).unwrap();
            let (request, request_id, wanted) = convert::into_request(r.clone()).unwrap();
            let Ok(ruling) = qili::request::adjudicate(&request) else {
                continue;
            };
            let expected = convert::reply(ruling, request_id.clone(), wanted);
            let got = client.adjudicate(r.clone()).await.unwrap().into_inner();
            assert_eq!(got, expected, "{request_id} {detail:?}");

            let mut answers = client
                .adjudicate_stream(futures::stream::iter(vec![r.clone()]))
                .await
                .unwrap()
                .into_inner();
            let answer = answers.message().await.unwrap().unwrap();
            assert_eq!(
                answer.result,
                Some(pb::adjudicate_stream_response::Result::Ruling(expected)),
                "{request_id}"
            );

            let referee = qili::referee::Referee::open(&request, options).unwrap();
            let status = convert::game_status(referee.status(), request_id.clone(), wanted);
            assert_eq!(client.status(r).await.unwrap().into_inner(), status);
            compared += 1;
        }
    }
    assert!(compared > 200, "{compared} compared");
    let _ = stop.send(());
    let _ = server.await;
}
