import statistics

losses = [0.91, 0.72, 0.65, 0.61, 0.58, 0.57]
accs = [71, 74, 75, 78, 78, 80, 81]
print(statistics.mean(losses), statistics.mean(accs), statistics.mean([1, 2, 3]), statistics.mean([1, 2]))
print(statistics.fmean(accs), statistics.fmean([1.0, 2.0], weights=[1, 3]))
print(statistics.median(losses), statistics.median(accs), statistics.median([1, 3]), statistics.median([3, 1, 2]))
print(statistics.median_low([1, 3, 5, 7]), statistics.median_high([1, 3, 5, 7]))
print(statistics.mode(accs), statistics.mode(["a", "b", "b", "a"]), statistics.multimode("aabbc"))
print(statistics.variance(accs), statistics.variance([1, 2, 3]), statistics.variance([1, 2, 3, 4]))
print(statistics.pvariance(accs), statistics.pvariance([2, 2, 2]), statistics.pvariance([1, 2, 3, 4]))
print(statistics.stdev(losses), statistics.stdev(accs), statistics.pstdev(losses), statistics.pstdev([1, 2, 3, 4]))
print(statistics.variance(losses), statistics.pvariance(losses))
print(statistics.mean([1, 2.5]), statistics.stdev([1.5, 2.5, 2.5, 2.75, 3.25, 4.75]))
print(statistics.variance([0.1, 0.2, 0.3]), statistics.mean([0.1, 0.2, 0.3]))
for op in [lambda: statistics.mean([]), lambda: statistics.variance([1]), lambda: statistics.stdev([]),
           lambda: statistics.pvariance([]), lambda: statistics.pstdev([]), lambda: statistics.median([]),
           lambda: statistics.mode([])]:
    try:
        op()
    except statistics.StatisticsError as e:
        print("StatisticsError:", e, isinstance(e, ValueError))
