//! Empty: the benchmarks are in benches/work.rs.
