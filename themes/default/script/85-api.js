// window.perfpages, for tests and the curious (devtools): the functions
// that turn the data files into rows and text, and the charts' data and
// value axis.
window.perfpages = {formatValue: formatValue, formatChange: formatChange, formatThreshold: formatThreshold,
  formatFactor: formatFactor, formatFixed: formatFixed, comparisonRows: comparisonRows, renderRow: renderRow,
  historyData: historyData, valueAxis: valueAxis};
