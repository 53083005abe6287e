//! Nothing but a home for `tests/fixture_programs.rs`: a2a-codegen's golden fixtures (the code
//! its tests hold the generator to, byte for byte) compiled and run as programs.
