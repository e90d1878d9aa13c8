# Median ms per call of each benchmark and variant (bench/run.sh).
# gnuplot results.gp  writes results.png.
set terminal pngcairo noenhanced size 1600,800 font ',10'
set output 'results.png'
set title 'Flat benchmarks: median ms per call, transfers included (log scale, lower is better)'
set datafile missing '?'
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set logscale y
set ylabel 'ms per call'
set xtics rotate by -40 left nomirror
set grid ytics
set key outside right top
set bmargin 9
$data << EOD
dataset seq omp acc flat-opencl cublas cublas-dev
"saxpy 1048576" 0.4107 3.5053 1.6556 1.4574 1.2278 0.0138
"saxpy 67108864" 46.5811 6.2929 83.5913 101.832 97.08 0.3077
"matvec 8192x8192" 56.5057 5.9533 36.2815 39.1173 37.0187 0.1242
"matvec 1048576x64" 50.4241 4.4649 39.2284 37.7606 32.7777 0.1582
"matvec 64x1048576" 67.1156 4.6707 127.45 112.358 38.9736 0.1087
"matvec_t 8192x8192" 798.2 90.0302 35.8059 39.0982 37.8411 0.105
"matvec_t 1048576x64" 695.615 45.8398 241.394 129.047 32.4906 0.1123
"matvec_t 64x1048576" 393.879 57.1751 39.1449 39.9374 38.7187 0.1151
"matmul 256x256x256" 23.8989 1.8457 0.2718 0.2067 0.2853 0.0255
"matmul 1024x1024x1024" 6093.86 362.543 1.9481 2.107 1.1206 0.0734
"matmul 4x4x1048576" 13.8805 1.4865 69.9128 68.7156 2.9491 0.1477
"matmul 16x16x65536" 42.4488 3.2012 4.4432 4.9833 0.7571 0.0387
"matmul 1024x1024x16" 14.8748 1.6142 0.8192 1.1435 0.418 0.0171
"matmul 4096x4096x1" 33.7681 6.4453 6.8891 14.4612 6.5101 0.0429
"matmul 1048576x16x16" 173.586 21.1379 16.3971 27.2773 17.0868 0.1033
"matmul 16x1048576x16" 328.901 29.2446 18.251 22.8412 15.4477 0.088
"stencil 4096x4096" 44.1671 6.5686 17.2958 25.6121 ? ?
"stencil 8192x8192" 666.341 61.1456 73.4148 112.483 ? ?
EOD
plot for [i=2:7] $data using i:xtic(1) title columnheader(i)
