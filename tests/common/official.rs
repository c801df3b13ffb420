//! The writer's input from the official tables, read through our prober:
//! exact WDL, DTZ as the tables give it (rounded where they round), and the
//! best WDL of captures and of pawn moves from a search of the children.

use std::cell::RefCell;

use shakmaty::{
    Board, CastlingMode, Chess, Color, FromSetup, Piece, Position, Role, Setup, Square,
};
use syzygy_web::drivers::{FsFetcher, Tablebase};
use syzygy_web::material::Material;
use syzygy_web::write::{pieces, Source, Values};

/// The official tables, read through our prober.
pub struct Official {
    tb: RefCell<Tablebase<FsFetcher>>,
    pieces: Vec<Piece>,
}

impl Official {
    pub fn new(name: &str) -> Official {
        let mat = Material::from_name(name).expect("material");
        let pieces = pieces(&mat)
            .iter()
            .map(|&c| Piece {
                color: if c < 8 { Color::White } else { Color::Black },
                role: Role::try_from(u32::from(c & 7)).expect("role"),
            })
            .collect();
        Official {
            tb: RefCell::new(super::ours()),
            pieces,
        }
    }
}

pub fn position(pieces: &[Piece], squares: &[u8], turn: Color) -> Option<Chess> {
    let mut board = Board::empty();
    for (p, &s) in pieces.iter().zip(squares) {
        board.set_piece_at(Square::new(u32::from(s)), *p);
    }
    let mut setup = Setup::empty();
    setup.board = board;
    setup.turn = turn;
    match Chess::from_setup(setup, CastlingMode::Standard) {
        Ok(p) => Some(p),
        Err(e) => e.ignore_impossible_check().ok(),
    }
}

impl Source for Official {
    fn values(&self, squares: &[u8], white_to_move: bool) -> Option<Values> {
        let turn = if white_to_move {
            Color::White
        } else {
            Color::Black
        };
        let pos = position(&self.pieces, squares, turn)?;
        let mut tb = self.tb.borrow_mut();
        let (wdl, dtz) = tb.probe_dtz(&pos).expect("official tables answer");
        let (mut capture, mut pawn_move) = (None::<i8>, None::<i8>);
        for m in pos.legal_moves() {
            if !(m.is_capture() || m.role() == Role::Pawn) {
                continue;
            }
            let mut child = pos.clone();
            child.play_unchecked(m);
            let v = -tb.probe_wdl(&child).expect("official tables answer");
            let best = if m.is_capture() {
                &mut capture
            } else {
                &mut pawn_move
            };
            *best = Some(best.map_or(v, |b| b.max(v)));
        }
        Some(Values {
            wdl,
            dtz: dtz.plies,
            capture,
            pawn_move,
        })
    }
}
