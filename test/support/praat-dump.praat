# Dumps what Praat reads from TextGrid files, for annot's consumer tests (test/support/praat.ts).
# Run as: praat --run praat-dump.praat LIST, where LIST is a text file naming one TextGrid per line.
# Prints, for each file in order, tab-separated lines:
#   textgrid <xmin> <xmax> <number of tiers>
#   tier interval|point <number of items> <name>
#   interval <xmin> <xmax> <label>      (IntervalTier)
#   point <time> <label>                (TextTier)
# Numbers as Praat prints them (enough digits to give back the same double); in names and labels
# a backslash, tab, line feed and carriage return are written \\, \t, \n and \r.
form Dump TextGrids
  sentence listFile
endform
files$ = readFile$ (listFile$)
while length (files$) > 0
  nl = index (files$, newline$)
  if nl = 0
    path$ = files$
    files$ = ""
  else
    path$ = left$ (files$, nl - 1)
    files$ = mid$ (files$, nl + 1, length (files$))
  endif
  if path$ <> ""
    @dumpTextGrid: path$
  endif
endwhile

procedure dumpTextGrid: .path$
  .grid = Read from file: .path$
  .start = Get start time
  .end = Get end time
  .tiers = Get number of tiers
  appendInfoLine: "textgrid", tab$, .start, tab$, .end, tab$, .tiers
  for .t to .tiers
    selectObject: .grid
    .name$ = Get tier name: .t
    @escape: .name$
    .isInterval = Is interval tier: .t
    if .isInterval
      .count = Get number of intervals: .t
      appendInfoLine: "tier", tab$, "interval", tab$, .count, tab$, escape.result$
      for .i to .count
        .a = Get start time of interval: .t, .i
        .b = Get end time of interval: .t, .i
        .label$ = Get label of interval: .t, .i
        @escape: .label$
        appendInfoLine: "interval", tab$, .a, tab$, .b, tab$, escape.result$
      endfor
    else
      .count = Get number of points: .t
      appendInfoLine: "tier", tab$, "point", tab$, .count, tab$, escape.result$
      for .i to .count
        .a = Get time of point: .t, .i
        .label$ = Get label of point: .t, .i
        @escape: .label$
        appendInfoLine: "point", tab$, .a, tab$, escape.result$
      endfor
    endif
  endfor
  removeObject: .grid
endproc

procedure escape: .text$
  .result$ = replace$ (.text$, "\", "\\", 0)
  .result$ = replace$ (.result$, tab$, "\t", 0)
  .result$ = replace$ (.result$, newline$, "\n", 0)
  .result$ = replace$ (.result$, unicode$ (13), "\r", 0)
endproc
