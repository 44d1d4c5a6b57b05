//! Messages, client and server stubs generated from `proto/qili/v1/qili.proto`, with the proto3
//! JSON mapping (serde, via pbjson) and the encoded descriptor set served by reflection.
#![allow(missing_docs, clippy::all, clippy::pedantic)]

mod adjudicate;
pub use adjudicate::AdjudicateRequest;

tonic::include_proto!("qili.v1");
include!(concat!(env!("OUT_DIR"), "/qili.v1.serde.rs"));

/// The encoded `FileDescriptorSet` of `qili.v1`, with comments, for server reflection.
pub const FILE_DESCRIPTOR_SET: &[u8] =
    include_bytes!(concat!(env!("OUT_DIR"), "/qili_descriptor.bin"));
