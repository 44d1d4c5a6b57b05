//! The live-game calls over the library's referee: `Watch` (one game refereed move by move over one
//! stream) and `Status` (the same answer for a whole game).
//!
//! A game lives in its stream only: the referee is a local of the stream's task, so replicas stay
//! stateless between streams. A move that costs no ruling (one that reaches no earlier position
//! and leaves none to come back to: about a microsecond) is played on the async worker that
//! read it; any other and a stream's opening run where rulings run (see `pool.rs`), within the
//! deadline. `Status` (a whole game) reads a short game (the cheap path's 2 KiB, `quick.rs`) on
//! the worker and plays its moves there while they cost no ruling; from the first that may, the
//! game goes on in the pool.

use super::access::{self, CallNote};
use super::convert::{self, Wanted};
use super::failure::{Failure, Limit};
use super::handler::QiliService;
use super::pb;
use super::pb::watch_request::Message;
use super::pool::guarded;
use super::quick;
use crate::lang::Lang;
use crate::moves::Move;
use crate::notation::Notation;
use crate::referee::Referee;
use crate::request::RequestError;
use futures::{Stream, StreamExt};
use std::pin::Pin;
use std::time::Instant;
use tokio::sync::mpsc;
use tonic::{Request, Response, Status, Streaming};

/// The statuses of a `Watch` stream.
pub type GameStream = Pin<Box<dyn Stream<Item = Result<pb::StatusReply, Status>> + Send>>;

/// A game's status as a call answers it: the generated message (the JSON API's) or the one the
/// gRPC server writes, its ruling written straight from the library's (`pb::StatusReply`).
pub(super) trait Answer: Send + 'static {
    /// The answer for the library's status `s`, echoing `request_id`, at what `wanted` asks.
    fn said(s: crate::referee::Status, request_id: String, wanted: Wanted) -> Self;
    /// Sets its `error`: why a move was not played.
    fn set_error(&mut self, error: pb::Error);
}

impl Answer for pb::GameStatus {
    fn said(s: crate::referee::Status, request_id: String, wanted: Wanted) -> Self {
        convert::game_status(s, request_id, wanted)
    }

    fn set_error(&mut self, error: pb::Error) {
        self.error = Some(error);
    }
}

impl Answer for pb::StatusReply {
    fn said(s: crate::referee::Status, request_id: String, wanted: Wanted) -> Self {
        convert::game_status_written(s, request_id, wanted)
    }

    fn set_error(&mut self, error: pb::Error) {
        pb::StatusReply::set_error(self, error);
    }
}

/// The name `Watch`'s answers are logged under.
const WATCH: &str = "/qili.v1.Qili/Watch";

/// Statuses computed and not yet sent: a client that stops reading holds up the game's task, not
/// the server's memory.
const OUTBOX: usize = 16;

/// A game being refereed, with what its statuses echo.
struct Game {
    referee: Referee,
    request_id: String,
    wanted: Wanted,
    notation: Option<Notation>,
}

impl Game {
    /// The game the opening describes, every move of it played (at most `max_moves`).
    fn open(r: pb::AdjudicateRequest, max_moves: usize) -> Result<Game, Failure> {
        let (mut game, moves) = Game::begin(r, max_moves)?;
        game.replay(&moves)?;
        Ok(game)
    }

    /// The game the opening describes at its start, and its moves read (at most `max_moves`),
    /// not yet played: [`Referee::open`] in two steps, so that `Status` can play the quiet ones
    /// on the async worker.
    fn begin(r: pb::AdjudicateRequest, max_moves: usize) -> Result<(Game, Vec<Move>), Failure> {
        let lang = convert::error_lang(convert::language(r.language)?);
        too_many(r.moves.len(), max_moves, lang)?;
        let options = convert::game_options(r.game.as_ref(), lang)?;
        let (request, request_id, wanted) = convert::into_request(r)?;
        let notation = request.notation;
        let (start, moves) = request
            .parse()
            .map_err(|e| Failure::request(&e, wanted.error_lang()))?;
        // A UCCI position string's moves count too.
        too_many(moves.len(), max_moves, lang)?;
        let game = Game {
            referee: Referee::new(start, request.options, options),
            request_id,
            wanted,
            notation,
        };
        Ok((game, moves))
    }

    /// Plays `moves`, read from the opening, without statuses (as [`Referee::open`] does).
    fn replay(&mut self, moves: &[Move]) -> Result<(), Failure> {
        for &m in moves {
            self.referee.replay(m).map_err(|e| {
                Failure::internal(format!("a move read from the request does not play: {e}"))
            })?;
        }
        Ok(())
    }

    /// Plays the leading moves of `moves` that cost no ruling ([`Referee::is_quiet`]); how many.
    fn replay_quiet(&mut self, moves: &[Move]) -> Result<usize, Failure> {
        let mut quiet = 0;
        for m in moves {
            if !self.referee.is_quiet(*m) {
                break;
            }
            self.replay(std::slice::from_ref(m))?;
            quiet += 1;
        }
        Ok(quiet)
    }

    /// The API's status of the game as it stands.
    fn status<T: Answer>(&self) -> T {
        T::said(self.referee.status(), self.request_id.clone(), self.wanted)
    }

    /// The status as it stands, with the verdict of its ruling (if it has one) for the log.
    fn logged_status<T: Answer>(&self) -> (T, Option<&'static str>) {
        let s = self.referee.status();
        let verdict = s.ruling.as_ref().map(|r| r.verdict.name());
        let status = T::said(s, self.request_id.clone(), self.wanted);
        (status, verdict)
    }

    /// Reads `text` as a move of the game's position, once for both [`costs_no_ruling`] and
    /// [`play`](Self::play).
    ///
    /// [`costs_no_ruling`]: Self::costs_no_ruling
    fn read(&self, text: &str) -> Result<Move, RequestError> {
        self.referee.read(text, self.notation)
    }

    /// Whether playing the move `read` costs no ruling, so that it may be played on the async
    /// worker (the cheap path, as `quick.rs` for rulings): a move that cannot be read (its error
    /// costs nothing), or one that reaches no earlier position and leaves none to come back to
    /// ([`Referee::is_quiet`]); the rest may rule a cycle (up to the search bound) and go to
    /// the pool. Most moves of a game are quiet.
    fn costs_no_ruling(&self, read: &Result<Move, RequestError>) -> bool {
        read.as_ref().map_or(true, |&m| self.referee.is_quiet(m))
    }

    /// Plays the move `read`: its status, or the game's unchanged status with the error.
    fn play<T: Answer>(&mut self, read: Result<Move, RequestError>) -> (T, Option<Failure>) {
        match read.map(|m| self.referee.play_legal(m)) {
            Ok(s) => (T::said(s, self.request_id.clone(), self.wanted), None),
            Err(e) => {
                let failure = Failure::request(&e, self.wanted.error_lang());
                let mut status: T = self.status();
                status.set_error(failure.to_pb());
                (status, Some(failure))
            }
        }
    }
}

/// RESOURCE_EXHAUSTED (said in `lang`) when a game would hold more than `max_moves` plies.
fn too_many(moves: usize, max_moves: usize, lang: Lang) -> Result<(), Failure> {
    if moves > max_moves {
        return Err(Failure::limit(Limit::Moves { moves, max_moves }).said(lang));
    }
    Ok(())
}

/// A `Status` call's game as the pool takes it up: begun on the worker (its moves read, the
/// leading quiet ones played), or not read yet (too long for the worker).
enum Pending {
    /// The game, its moves, how many of them are played.
    Begun(Box<Game>, Vec<Move>, usize),
    /// The request.
    Unread(pb::AdjudicateRequest),
}

/// `Status`: the status of a whole game's last position (the JSON API's call keeps the failure's
/// reason, to say a limit in the language its headers ask).
pub(super) async fn status<T: Answer>(
    service: &QiliService,
    request: Request<pb::AdjudicateRequest>,
) -> Result<Response<T>, Failure> {
    let start = Instant::now();
    let deadline = service.deadline_of(start, &request);
    let note = request.extensions().get::<CallNote>().cloned();
    let r = request.into_inner();
    if let Some(note) = &note {
        note.request_id(&r.request_id);
    }
    let lang = convert::language(r.language).map_or(Lang::En, convert::error_lang);
    let max_moves = service.config().max_moves;
    // The cheap path (`quick.rs`): a short game is read on the async worker and its moves played
    // there while they cost no ruling; the game goes to the pool at the first that may rule a
    // cycle, to be played on from there (nothing is played twice). A game of quiet moves only
    // is answered here.
    let pending = if quick::fits_text(&r.fen, &r.moves) {
        if Instant::now() >= deadline {
            return Err(Failure::deadline(start.elapsed().as_millis()).said(lang));
        }
        let (mut game, moves) = guarded(|| Game::begin(r, max_moves))??;
        let quiet = guarded(|| game.replay_quiet(&moves))??;
        if quiet == moves.len() {
            let (answer, verdict) = guarded(|| game.logged_status::<T>())?;
            if Instant::now() >= deadline {
                return Err(Failure::deadline(start.elapsed().as_millis()).said(lang));
            }
            if let (Some(note), Some(verdict)) = (&note, verdict) {
                note.verdict(verdict);
            }
            return Ok(Response::new(answer));
        }
        Pending::Begun(Box::new(game), moves, quiet)
    } else {
        Pending::Unread(r)
    };
    let (answer, verdict) = service
        .pool()
        .run(start, deadline, move || {
            let game = match pending {
                Pending::Begun(mut game, moves, quiet) => {
                    game.replay(&moves[quiet..]).map(|()| game)
                }
                Pending::Unread(r) => Game::open(r, max_moves).map(Box::new),
            };
            game.map(|game| game.logged_status::<T>())
        })
        .await
        .map_err(|f| f.said(lang))
        .and_then(|answer| answer)?;
    if let (Some(note), Some(verdict)) = (&note, verdict) {
        note.verdict(verdict);
    }
    Ok(Response::new(answer))
}

/// `Watch`: a task per stream holds the game and answers each message in order.
pub(super) async fn watch(
    service: &QiliService,
    request: Request<Streaming<pb::WatchRequest>>,
) -> Result<Response<GameStream>, Status> {
    let note = request.extensions().get::<CallNote>().cloned();
    let incoming = request.into_inner();
    let (tx, rx) = mpsc::channel(OUTBOX);
    let service = service.clone();
    tokio::spawn(async move {
        if let Err(status) = referee_stream(&service, incoming, &tx, note).await {
            let _ = tx.send(Err(status)).await;
        }
    });
    let answers = futures::stream::unfold(rx, |mut rx| async move {
        rx.recv().await.map(|answer| (answer, rx))
    });
    Ok(Response::new(Box::pin(answers)))
}

/// The next message, `None` when the client has finished; a message that cannot be read ends
/// the stream with the status a client should see.
async fn next(incoming: &mut Streaming<pb::WatchRequest>) -> Result<Option<Message>, Status> {
    match incoming.next().await {
        None => Ok(None),
        Some(Err(status)) => Err(super::failure::reclassify(&status).unwrap_or(status)),
        Some(Ok(m)) => {
            Ok(Some(m.message.unwrap_or(Message::Play(pb::WatchMoves {
                moves: Vec::new(),
            }))))
        }
    }
}

/// Referees the game of one stream; an error ends the stream with it.
async fn referee_stream(
    service: &QiliService,
    mut incoming: Streaming<pb::WatchRequest>,
    tx: &mpsc::Sender<Result<pb::StatusReply, Status>>,
    note: Option<CallNote>,
) -> Result<(), Status> {
    let max_moves = service.config().max_moves;
    let open = match next(&mut incoming).await? {
        None => return Ok(()),
        Some(Message::Open(r)) => r,
        Some(Message::Play(_)) => {
            return Err(Failure::invalid(
                "open",
                "open: the first message of a Watch stream must open the game (`open`), not play moves"
                    .to_string(),
            )
            .to_status());
        }
    };
    if let Some(note) = &note {
        note.request_id(&open.request_id);
    }
    let start = Instant::now();
    let deadline = start + service.config().deadline;
    let lang = convert::language(open.language).map_or(Lang::En, convert::error_lang);
    let (mut game, first) = service
        .pool()
        .run(start, deadline, move || {
            let game = Game::open(open, max_moves)?;
            let status: pb::StatusReply = game.status();
            Ok::<_, Failure>((Box::new(game), status))
        })
        .await
        .map_err(|f| f.said(lang))
        .and_then(|opened| opened)
        .map_err(|f| f.to_status())?;
    if tx.send(Ok(first)).await.is_err() {
        return Ok(());
    }
    // On drain (SIGTERM) the stream stops reading, after answering the message in hand, and ends
    // with OK.
    let mut drained = std::pin::pin!(service.drained());
    loop {
        let message = tokio::select! {
            biased;
            () = &mut drained => break,
            message = next(&mut incoming) => message?,
        };
        let Some(message) = message else { break };
        let moves = match message {
            Message::Play(p) => p.moves,
            Message::Open(_) => {
                let failure = Failure::invalid(
                    "open",
                    "open: the game is already open: a stream carries one game (open another stream for another game)"
                        .to_string(),
                );
                access::streamed(
                    WATCH,
                    &game.request_id,
                    None,
                    Some(&failure),
                    Instant::now(),
                );
                let mut status: pb::StatusReply = game.status();
                status.set_error(failure.to_pb());
                if tx.send(Ok(status)).await.is_err() {
                    return Ok(());
                }
                continue;
            }
        };
        for text in moves {
            let played = game.referee.moves().len();
            let lang = game.wanted.error_lang();
            if played >= max_moves {
                let full = Limit::GameFull {
                    ply: played,
                    text,
                    max_moves,
                };
                return Err(Failure::limit(full).said(lang).to_status());
            }
            let start = Instant::now();
            let read = game.read(&text);
            let (status, failure): (pb::StatusReply, _) = if game.costs_no_ruling(&read) {
                guarded(|| game.play(read)).map_err(|f| f.said(lang).to_status())?
            } else {
                let deadline = start + service.config().deadline;
                let (back, status, failure) = service
                    .pool()
                    .run(start, deadline, move || {
                        let (status, failure) = game.play(read);
                        (game, status, failure)
                    })
                    .await
                    .map_err(|f| f.said(lang).to_status())?;
                game = back;
                (status, failure)
            };
            let stop = failure.is_some();
            if let Some(f) = &failure {
                access::streamed(WATCH, &game.request_id, None, Some(f), start);
            }
            if tx.send(Ok(status)).await.is_err() {
                return Ok(());
            }
            if stop {
                // The moves after a bad one are not played.
                break;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `Status`'s cheap path plays the game `Referee::open` plays, whole: the quiet moves first
    /// (on the worker), the rest from the first that may rule (in the pool). Every corpus case
    /// and a seventh of the platform mix.
    #[test]
    fn a_game_played_in_two_steps_is_the_game_opened_at_once() {
        let requests = crate::service::samples::requests(7);
        let said = |s| convert::game_status(s, String::new(), Wanted::full(pb::Language::Both));
        let (mut whole, mut split) = (0, 0);
        for r in requests {
            let options = convert::game_options(r.game.as_ref(), Lang::En).expect("options");
            let (request, id, _) = convert::into_request(r.clone()).expect("a request");
            let Ok(at_once) = Referee::open(&request, options) else {
                continue;
            };
            let (mut game, moves) = Game::begin(r, usize::MAX).expect("begun");
            let quiet = game.replay_quiet(&moves).expect("the quiet moves");
            game.replay(&moves[quiet..]).expect("the rest");
            assert_eq!(said(game.referee.status()), said(at_once.status()), "{id}");
            if quiet == moves.len() {
                whole += 1;
            } else {
                split += 1;
            }
        }
        // Both ways were taken.
        assert!(whole > 0 && split > 0, "{whole} whole, {split} split");
    }

    /// A move that reaches no earlier position, or cannot be read, is played on the worker; one
    /// that comes back to an earlier position (and so may be ruled) goes to the pool.
    #[test]
    fn only_moves_that_cost_no_ruling_stay_on_the_worker() {
        let opening = pb::AdjudicateRequest {
            moves: ["h2e2", "h9g7", "e2h2", "g7h9"].into_iter().collect(),
            ..Default::default()
        };
        let game = Game::open(opening, 1024).expect("a game");
        // Back to the position after h2e2: a repetition.
        assert!(!game.costs_no_ruling(&game.read("h2e2")));
        assert!(game.costs_no_ruling(&game.read("not a move")));
        let fresh = pb::AdjudicateRequest {
            moves: ["h2e2"].into_iter().collect(),
            ..Default::default()
        };
        let game = Game::open(fresh, 1024).expect("a game");
        assert!(game.costs_no_ruling(&game.read("h9g7")));
    }
}
