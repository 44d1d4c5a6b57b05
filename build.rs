//! Compiles `proto/qili/v1/qili.proto` with protox (pure Rust, so no `protoc` is needed) into the
//! tonic client and server, the proto3 JSON mapping (pbjson) and the descriptor set for reflection.

use std::path::PathBuf;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    println!("cargo:rerun-if-changed=proto");
    let out_dir = PathBuf::from(std::env::var("OUT_DIR")?);

    let mut compiler = protox::Compiler::new(["proto"])?;
    // Source info carries the comments into the generated docs and into reflection.
    compiler.include_source_info(true);
    compiler.open_file("qili/v1/qili.proto")?;
    let descriptor_bytes = compiler.encode_file_descriptor_set();
    std::fs::write(out_dir.join("qili_descriptor.bin"), &descriptor_bytes)?;

    tonic_prost_build::configure()
        .build_client(true)
        .build_server(true)
        .compile_fds(compiler.file_descriptor_set())?;

    pbjson_build::Builder::new()
        .register_descriptors(&descriptor_bytes)?
        .emit_fields()
        .build(&[".qili.v1"])?;
    Ok(())
}
