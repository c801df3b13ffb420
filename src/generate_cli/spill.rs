//! A big table's slices to its values file as the generator lets them go.

use std::fs;
use std::io;
use std::path::Path;

use super::values_dir::{flags_offset, flags_path, values_path};
use crate::generate::layout::Layout;
use crate::generate::summary::{Summary, Tally};
use crate::generate::{self, values_file};

/// Half a slice handed to the values file's writer: number, side to
/// move, DTZ50'' codes, mate codes, packed writer flags.
pub(super) type Slice = (usize, usize, Vec<i16>, Option<Vec<i16>>, Vec<u8>);

/// A big table's slices written to its values file (`NAME.swv.part`, at
/// their place) as the generator lets them go, and counted for the
/// summary on the way: on a thread of its own, so that solving goes on
/// meanwhile (KRPvKR: 24 slices of 134 MB).
pub(super) struct ToValuesFile {
    send: Option<std::sync::mpsc::SyncSender<Slice>>,
    /// A word from the writer each time it has written a half.
    written: std::sync::mpsc::Receiver<()>,
    /// A half was handed over and not yet written.
    in_flight: bool,
    writer: Option<std::thread::JoinHandle<(Tally, io::Result<()>)>>,
}

impl ToValuesFile {
    pub(super) fn create(dir: &Path, layout: &Layout, dtm: bool) -> io::Result<Self> {
        use std::os::unix::fs::FileExt;
        fs::create_dir_all(dir)?;
        let file = fs::File::create(values_path(dir, &layout.name).with_extension("swv.part"))?;
        file.write_all_at(&values_file::header(layout, dtm), 0)?;
        let flags_file = fs::File::create(flags_path(dir, &layout.name))?;
        // A half is copied for the writer only once the last one is
        // written: one copy at a time, 71 MB (a half takes a tenth of a
        // second to write, a slice seconds to solve).
        let (send, slices) = std::sync::mpsc::sync_channel::<Slice>(1);
        let (done, halves_written) = std::sync::mpsc::channel::<()>();
        let l = layout.clone();
        let writer = std::thread::Builder::new().spawn(move || {
            let mut tally = Tally::new(&l);
            let mut written = Ok(());
            for (slice, side, dtz, dtm, flags) in slices {
                tally.add(&l, slice, side, &dtz, dtm.as_deref());
                if written.is_ok() {
                    let mut put = |at: u64, bytes: &[u8]| file.write_all_at(bytes, at);
                    written =
                        values_file::put_slice(&l, slice, side, &dtz, dtm.as_deref(), &mut put)
                            .and_then(|_| {
                                flags_file.write_all_at(&flags, flags_offset(&l, slice, side))
                            });
                }
                drop((dtz, dtm, flags));
                let _ = done.send(());
            }
            (tally, written)
        })?;
        Ok(ToValuesFile {
            send: Some(send),
            written: halves_written,
            in_flight: false,
            writer: Some(writer),
        })
    }

    /// Renames the part to the values file once every slice is in; the
    /// table's summary and [`Tally::hundred`].
    pub(super) fn finish(
        mut self,
        dir: &Path,
        l: &Layout,
    ) -> io::Result<(Summary, [[bool; 2]; 2])> {
        drop(self.send.take());
        let (tally, written) = match self.writer.take().map(|w| w.join()) {
            Some(Ok(done)) => done,
            Some(Err(p)) => std::panic::resume_unwind(p),
            None => return Err(io::Error::other("values file already finished")),
        };
        written?;
        let path = values_path(dir, &l.name);
        fs::rename(path.with_extension("swv.part"), &path)?;
        let hundred = tally.hundred;
        Ok((tally.finish(l), hundred))
    }
}

impl generate::Spill for ToValuesFile {
    fn spill(
        &mut self,
        _: &Layout,
        slice: usize,
        side: usize,
        dtz: &[i16],
        dtm: Option<&[i16]>,
        flags: Vec<u8>,
    ) {
        // A writer that stopped says why when finished.
        if std::mem::take(&mut self.in_flight) && self.written.recv().is_err() {
            return;
        }
        if let Some(send) = &self.send {
            let half = (slice, side, dtz.to_vec(), dtm.map(<[i16]>::to_vec), flags);
            self.in_flight = send.send(half).is_ok();
        }
    }
}
