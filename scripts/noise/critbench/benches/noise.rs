// Tiny Criterion.rs benchmarks run over and over to collect run-to-run
// noise (scripts/noise/produce.py). Nothing here is meant to change.
use criterion::{black_box, criterion_group, criterion_main, Criterion};

fn fib(n: u64) -> u64 {
    if n < 2 { n } else { fib(n - 1) + fib(n - 2) }
}

fn sort_vec(c: &mut Criterion) {
    let mut x: u32 = 1;
    let src: Vec<u32> = (0..4000).map(|_| { x = x.wrapping_mul(1664525).wrapping_add(1013904223); x >> 8 }).collect();
    c.bench_function("sort_vec", |b| b.iter(|| { let mut v = src.clone(); v.sort(); black_box(v) }));
}

fn fib_20(c: &mut Criterion) {
    c.bench_function("fib_20", |b| b.iter(|| fib(black_box(20))));
}

criterion_group!(benches, fib_20, sort_vec);
criterion_main!(benches);
