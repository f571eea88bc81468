//! Criterion benchmarks of perfpages' agreement suite (see ../../../README.md).
//! SIDE=base or SIDE=head picks the amount of work; each benchmark's name
//! says how the head differs from the base.
use criterion::{black_box, criterion_group, criterion_main, Criterion};

/// Returns `base` on the base side and `head` on the head side.
fn size(base: u64, head: u64) -> u64 {
    if std::env::var("SIDE").as_deref() == Ok("head") {
        head
    } else {
        base
    }
}

/// Runs n steps of a 64-bit LCG, which no compiler folds away.
fn work(n: u64) -> u64 {
    let mut x = 1u64;
    for i in 0..n {
        x = x.wrapping_mul(6364136223846793005).wrapping_add(i);
    }
    x
}

fn bench(c: &mut Criterion) {
    for (name, base, head) in [
        ("same", 2000, 2000),
        ("small", 2000, 2040),
        ("small_faster", 2000, 1960),
        ("large", 2000, 2600),
        ("large_faster", 2000, 1500),
    ] {
        let n = size(base, head);
        c.bench_function(name, |b| b.iter(|| work(black_box(n))));
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
