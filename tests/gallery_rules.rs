//! The gallery of real failures: each entry's rule prevents its failure.
#![cfg(not(target_arch = "wasm32"))]

use team_protocols::explore::gallery::{reproduce, GALLERY};

#[test]
fn probe() {
    for e in GALLERY {
        for on in [false, true] {
            let t = std::time::Instant::now();
            let r = reproduce(e, on).unwrap();
            let p = r.property(e.property).unwrap();
            println!("{} on={on} {:?} states={} distinct={} complete={} {:.3}s", e.id, p.verdict, r.states, r.distinct_states, r.complete, t.elapsed().as_secs_f64());
            if let Some(x) = &p.example { println!("   {:?} {}", x.finding, x.path.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(" | ")); }
        }
    }
}
