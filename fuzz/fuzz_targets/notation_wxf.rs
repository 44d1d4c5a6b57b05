//! WXF move texts (`C2.5`, `R+.3`, `P3.4`) read against a fixed position chosen by the first byte.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| qili_fuzz::check_notation(qili::Notation::Wxf, data));
