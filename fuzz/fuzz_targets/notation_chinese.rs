//! Chinese move texts (`炮二平五`, `前车进一`) read against a fixed position chosen by the first byte.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| qili_fuzz::check_notation(qili::Notation::Chinese, data));
