//! A file replaced on the server while a round is out (a delete-then-upload
//! deploy): one answer is a 404, one the new version, one the old version
//! asked for before the delete. The old one is stale, not a change back.

mod common;

use std::collections::HashMap;

use common::*;
use syzygy_web::drivers::{Fetcher, Request, Response};
use syzygy_web::drivers::{FsFetcher, Tablebase};
use syzygy_web::probe::parse_fen;
use syzygy_web::Config;

/// Local files with validators: "v1" until the deploy, "v2" after it. The
/// deploy comes in the first round that asks one file for 3 ranges or more:
/// that file's first answer there is a 404, its second the new version, the
/// rest the old one.
struct Deploy {
    inner: FsFetcher,
    file: Option<String>,
}

impl Fetcher for Deploy {
    fn fetch(&mut self, batch: &[Request]) -> Vec<Response> {
        let mut answers = self.inner.fetch(batch);
        if self.file.is_none() {
            let mut count: HashMap<&str, usize> = HashMap::new();
            for r in batch {
                *count.entry(r.name.as_str()).or_default() += 1;
            }
            if let Some((name, _)) = count.into_iter().find(|&(_, n)| n >= 3) {
                let name = name.to_string();
                let mut seen = 0;
                for (r, a) in batch.iter().zip(answers.iter_mut()) {
                    if let Response::Bytes { validator, .. } = a {
                        *validator = "v1".into();
                    }
                    if r.name != name {
                        continue;
                    }
                    seen += 1;
                    match (seen, &mut *a) {
                        (1, a) => *a = Response::Absent,
                        (2, Response::Bytes { validator, .. }) => *validator = "v2".into(),
                        _ => {}
                    }
                }
                self.file = Some(name);
                return answers;
            }
        }
        for (r, a) in batch.iter().zip(answers.iter_mut()) {
            if let Response::Bytes { validator, .. } = a {
                let deployed = self.file.as_deref() == Some(r.name.as_str());
                *validator = if deployed { "v2" } else { "v1" }.into();
            }
        }
        answers
    }
}

#[test]
fn an_old_answer_after_a_404_and_the_new_version_in_one_round_is_stale() {
    // Until 2026-11-30 the 404 made the engine forget the version before,
    // so the old answer read as a change back: three changes in two rounds,
    // and the probe failed "keeps changing".
    let fen = "8/8/4k3/8/3r4/3P4/8/3RK3 b - - 12 40";
    let p = parse_fen(fen).expect("FEN");
    let want = ours().analyse(&p).expect("local answer");
    let deploy = Deploy {
        inner: FsFetcher::new(vec![syzygy_path()]),
        file: None,
    };
    let mut t = Tablebase::new(deploy, Config::default());
    let got = t.analyse(&p);
    assert!(
        t.fetcher_mut().file.is_some(),
        "no round asked one file for 3 ranges"
    );
    assert_eq!(got.expect("answer across the deploy"), want);
}
