//! ICCS move texts (`h2e2`, `H2-E2`) read against a fixed position chosen by the first byte.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| qili_fuzz::check_notation(qili::Notation::Iccs, data));
