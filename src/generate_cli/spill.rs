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
                // A failed write stops the generation: the next half finds
                // this thread gone (see `spill`).
                if written.is_err() {
                    break;
                }
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
        super::values_dir::synced_rename(&path.with_extension("swv.part"), &path)?;
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
    ) -> Result<(), String> {
        let mut stopped = std::mem::take(&mut self.in_flight) && self.written.recv().is_err();
        if let (Some(send), false) = (&self.send, stopped) {
            let half = (slice, side, dtz.to_vec(), dtm.map(<[i16]>::to_vec), flags);
            self.in_flight = send.send(half).is_ok();
            stopped = !self.in_flight;
        }
        if !stopped {
            return Ok(());
        }
        // The writer stopped at a failed write: its error ends the run.
        drop(self.send.take());
        Err(match self.writer.take().map(|w| w.join()) {
            Some(Ok((_, Err(e)))) => format!("writing the values file: {e}"),
            _ => "the values file's writer stopped".to_string(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::layout::parse_material;
    use generate::Spill;

    /// A write that fails (a full disk: the flags file is /dev/full here)
    /// ends the generation at the next half, with the system's error; it
    /// once ran to the table's end first (hours for the biggest).
    #[test]
    fn a_failed_write_stops_at_the_next_half() {
        let dir = std::env::temp_dir().join(format!("syzygy-web-full-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        std::os::unix::fs::symlink("/dev/full", flags_path(&dir, "KPvK")).unwrap();
        let layout = Layout::new(parse_material("KPvK").unwrap());
        let mut s = ToValuesFile::create(&dir, &layout, false).unwrap();
        let dtz = vec![0i16; layout.slice_size];
        assert_eq!(s.spill(&layout, 0, 0, &dtz, None, vec![0; 8]), Ok(()));
        let e = s.spill(&layout, 0, 1, &dtz, None, vec![0; 8]).unwrap_err();
        assert!(e.contains("writing the values file"), "{e}");
        let _ = fs::remove_dir_all(&dir);
    }
}
