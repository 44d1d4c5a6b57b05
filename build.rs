//! Compiles `proto/qili/v1/qili.proto` with protox (pure Rust, so no `protoc` is needed) into the
//! tonic client and server, the proto3 JSON mapping (pbjson) and the descriptor set for reflection;
//! and names the commit qili is built from (`QILI_COMMIT`, shown by `qili --version`). Without the
//! `service` feature there is no proto to compile: only the commit is named.

use std::path::{Path, PathBuf};
use std::process::Command;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR")?);
    println!("cargo:rustc-env=QILI_COMMIT={}", commit(&root));
    #[cfg(feature = "service")]
    compile_proto()?;
    Ok(())
}

/// The proto's Rust code, JSON mapping and descriptor set, into `OUT_DIR`.
#[cfg(feature = "service")]
fn compile_proto() -> Result<(), Box<dyn std::error::Error>> {
    println!("cargo:rerun-if-changed=proto");
    let out_dir = PathBuf::from(std::env::var("OUT_DIR")?);

    let mut compiler = protox::Compiler::new(["proto"])?;
    // Source info carries the comments into the generated docs and into reflection.
    compiler.include_source_info(true);
    compiler.open_file("qili/v1/qili.proto")?;
    let descriptor_bytes = compiler.encode_file_descriptor_set();
    std::fs::write(out_dir.join("qili_descriptor.bin"), &descriptor_bytes)?;

    tonic_prost_build::configure()
        // Written by hand (src/service/pb/adjudicate.rs): its moves decode into one buffer.
        .extern_path(
            ".qili.v1.AdjudicateRequest",
            "crate::service::pb::AdjudicateRequest",
        )
        .build_client(true)
        .build_server(false)
        .compile_fds(compiler.file_descriptor_set())?;

    // The server apart, over the messages above, but for the replies that carry a ruling: the
    // server writes those from the library's ruling (src/service/pb/reply.rs), on the same wire.
    let server_dir = out_dir.join("server");
    std::fs::create_dir_all(&server_dir)?;
    tonic_prost_build::configure()
        .out_dir(&server_dir)
        .extern_path(".qili.v1", "crate::service::pb")
        .extern_path(".qili.v1.Ruling", "crate::service::pb::Reply")
        .extern_path(
            ".qili.v1.AdjudicateStreamResponse",
            "crate::service::pb::StreamReply",
        )
        .extern_path(".qili.v1.GameStatus", "crate::service::pb::StatusReply")
        .build_client(false)
        .build_server(true)
        .compile_fds(compiler.file_descriptor_set())?;

    pbjson_build::Builder::new()
        .register_descriptors(&descriptor_bytes)?
        .emit_fields()
        .build(&[".qili.v1"])?;
    Ok(())
}

/// The commit of the checkout being built, from git when this package is the root of a git
/// checkout (a clone, or cargo's checkout for `cargo install --git`); else the one `cargo package`
/// recorded in `.cargo_vcs_info.json`; else "unknown" (a tarball, or no git on the machine).
/// Asks to be run again when HEAD or the branch it is on moves.
fn commit(root: &Path) -> String {
    let git = |args: &[&str]| -> Option<String> {
        let out = Command::new("git")
            .arg("-C")
            .arg(root)
            .args(args)
            .output()
            .ok()?;
        let text = String::from_utf8(out.stdout).ok()?;
        (out.status.success() && !text.trim().is_empty()).then(|| text.trim().to_string())
    };
    // Only this package's own checkout: not a repository it was unpacked into.
    let own = git(&["rev-parse", "--show-toplevel"])
        .and_then(|top| Path::new(&top).canonicalize().ok())
        .zip(root.canonicalize().ok())
        .is_some_and(|(top, root)| top == root);
    if own {
        if let (Some(dir), Some(common)) = (
            git(&["rev-parse", "--absolute-git-dir"]),
            git(&["rev-parse", "--path-format=absolute", "--git-common-dir"]),
        ) {
            let mut watched = vec![
                Path::new(&dir).join("HEAD"),
                Path::new(&common).join("packed-refs"),
            ];
            if let Some(branch) = git(&["symbolic-ref", "-q", "HEAD"]) {
                watched.push(Path::new(&common).join(branch));
            }
            for path in watched.iter().filter(|p| p.exists()) {
                println!("cargo:rerun-if-changed={}", path.display());
            }
        }
        if let Some(sha) = git(&["rev-parse", "--short=12", "HEAD"]) {
            return sha;
        }
    }
    let vcs_info = root.join(".cargo_vcs_info.json");
    if vcs_info.exists() {
        println!("cargo:rerun-if-changed={}", vcs_info.display());
    }
    std::fs::read_to_string(&vcs_info)
        .ok()
        .and_then(|text| {
            let at = text.find("\"sha1\"")?;
            let sha: String = text[at + 6..]
                .chars()
                .skip_while(|c| !c.is_ascii_hexdigit())
                .take_while(char::is_ascii_hexdigit)
                .take(12)
                .collect();
            (sha.len() == 12).then_some(sha)
        })
        .unwrap_or_else(|| "unknown".to_string())
}
