// FlipbookRender: the compositor (render-tree snapshot at time t → pixels), the Recorder that
// drives a layer tree's clock frame by frame, and the frame sinks (PNG sequences, Y4M, ffmpeg,
// memory, null). It knows nothing of scene files (FlipbookScene builds on it).
