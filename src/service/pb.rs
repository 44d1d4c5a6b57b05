//! Messages, client and server stubs generated from `proto/qili/v1/qili.proto`, with the proto3
//! JSON mapping (serde, via pbjson) and the encoded descriptor set served by reflection.
#![allow(missing_docs, clippy::all, clippy::pedantic)]

mod adjudicate;
pub use adjudicate::AdjudicateRequest;
mod reply;
pub use reply::{Reply, StatusReply, StreamReply};

tonic::include_proto!("qili.v1");

/// The server's stubs, generated apart from the messages: the replies that carry a ruling are
/// written from the library's ruling ([`Reply`], [`StreamReply`], [`StatusReply`]); clients read
/// them as `Ruling`, `AdjudicateStreamResponse` and `GameStatus`.
mod server {
    include!(concat!(env!("OUT_DIR"), "/server/qili.v1.rs"));
}
pub use server::qili_server;
include!(concat!(env!("OUT_DIR"), "/qili.v1.serde.rs"));

/// The encoded `FileDescriptorSet` of `qili.v1`, with comments, for server reflection.
pub const FILE_DESCRIPTOR_SET: &[u8] =
    include_bytes!(concat!(env!("OUT_DIR"), "/qili_descriptor.bin"));
