#!/usr/bin/env python3
"""Fits the model of ElectrocardiogramClassifier and measures it by cross-validation.

Reads the features that `classify-eval` measured (one CSV row per recording: source, name, label N/A/O/~,
the classification Vitals gave, the beat count, then the features in ElectrocardiogramModel's order), and:

- fits two logistic regressions (scikit-learn, L2 penalty) on the standardized features, clamped to +-5 with
  missing values at 0 (the mean), as the Swift models apply them: a quality model on the noise measures
  (QUALITY_FEATURES; ~ against the rest) and a multinomial rhythm model on every feature (N, A, O; the ~
  rows left out). Training rows: the 150 CinC 2017
  recordings, weighted inversely to their class's frequency, and 30-s pieces of MIT-BIH and CPSC 2021
  (sinus N, inside AF episodes A, sinus with muscle noise at 0 and -6 dB ~), each kind of piece weighing in
  all as PIECE_RECORDINGS CinC recordings times the piece weight;
- folds: CinC 2017 stratified by label, the pieces by record (MIT-BIH) or patient (CPSC 2021) with their
  noisy copies, so that no record is on both sides; 5 folds, fixed seed;
- chooses the penalty C and the piece weight from a small grid by that cross-validation, maximizing the mean
  of (the mean F1 over N, A, O and ~ on CinC 2017) and (the mean share of pieces given their label), for
  the classifier's whole decision (too few beats, poor reading, the heart-rate limits, the likeliest rhythm);
- prints the cross-validated figures (nested: each outer fold's choice made by an inner cross-validation
  on its training rows only) beside the all-data ones (fitted and scored on every row);
- with --write PATH, writes the all-data fit as Swift (ElectrocardiogramModel.fitted).

Pieces with baseline wander (`bw`) or muscle noise at 6 dB are scored but never trained on: whether they are
poor readings is a matter of degree.

Usage: fit_classifier.py FEATURES.csv [--write PATH]
"""
import argparse
import sys

import numpy as np
import pandas as pd
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold

CLASSES = ["N", "A", "O", "~"]
RHYTHMS = ["N", "A", "O"]
# The quality model's features: noise measures only, so that a clean recording's rate or rhythm cannot make
# it a poor reading.
QUALITY_FEATURES = ["powerRatio", "unusableShare", "flatShare", "amplitudeSpread", "templateMatchShare",
                    "beatCoverage"]
C_GRID = [0.03, 0.1, 0.3, 1.0]
PIECE_WEIGHT_GRID = [0.0, 0.3, 1.0, 3.0]
PIECE_RECORDINGS = 10.0
TRAINED_PIECES = ["mitdb-sinus", "mitdb-af", "cpsc2021-af", "noisy-ma-0dB", "noisy-ma--6dB"]
FOLDS = 5
SEED = 2017
LIMIT = 5.0  # LogisticRegressionModel.standardizedLimit
LOW_RATE, HIGH_RATE, MINIMUM_BEATS = 50.0, 150.0, 3  # ElectrocardiogramClassifier's limits
META = ["source", "name", "label", "classification", "beatCount"]


class Model:
    """Standardization and logistic regression, as LogisticRegressionModel applies them."""

    def __init__(self, features, labels, weights, c, classes):
        self.means = np.nanmean(features, axis=0)
        scales = np.nanstd(features, axis=0)
        self.scales = np.where(scales > 0, scales, 1.0)
        regression = LogisticRegression(C=c, max_iter=10000)
        regression.fit(self.standardized(features), labels, sample_weight=weights)
        if len(classes) == 2:  # one row for classes[1]; classes[0]'s row is zeros
            self.weights = np.vstack([np.zeros(features.shape[1]), regression.coef_[0]])
            self.intercepts = np.array([0.0, regression.intercept_[0]])
        else:
            order = [list(regression.classes_).index(label) for label in classes]
            self.weights = regression.coef_[order]
            self.intercepts = regression.intercept_[order]

    def standardized(self, features):
        z = (features - self.means) / self.scales
        return np.clip(np.nan_to_num(z, nan=0.0), -LIMIT, LIMIT)

    def probabilities(self, features):
        logits = self.standardized(features) @ self.weights.T + self.intercepts
        logits -= logits.max(axis=1, keepdims=True)
        exponentials = np.exp(logits)
        return exponentials / exponentials.sum(axis=1, keepdims=True)


class Classifier:
    """The quality model (poor reading or not), the rhythm model (N, A, O), and the classifier's decision."""

    def __init__(self, data, rows, weights, c):
        self.quality_columns = [data.names.index(name) for name in QUALITY_FEATURES]
        poor = (data.labels[rows] == "~").astype(int)
        self.quality = Model(data.features[rows][:, self.quality_columns], poor, weights[rows], c, [0, 1])
        rhythm = rows & (data.labels != "~")
        self.rhythm = Model(data.features[rhythm], data.labels[rhythm], weights[rhythm], c, RHYTHMS)

    def decide(self, features, rates, beats):
        """ElectrocardiogramClassifier's decision, in CinC 2017 labels (low and high rate count as O)."""
        poor = self.quality.probabilities(features[:, self.quality_columns])[:, 1]
        rhythm = self.rhythm.probabilities(features)
        labels = []
        for k in range(len(features)):
            if beats[k] < MINIMUM_BEATS or poor[k] > 0.5:
                labels.append("~")
            elif rates[k] < LOW_RATE or rates[k] > HIGH_RATE:
                labels.append("O")
            else:
                labels.append(RHYTHMS[int(np.argmax(rhythm[k]))])
        return np.array(labels)


def f1_scores(reference, predicted):
    result = {}
    for label in CLASSES:
        hits = np.sum((reference == label) & (predicted == label))
        total = np.sum(reference == label) + np.sum(predicted == label)
        result[label] = 2 * hits / total if total else float("nan")
    return result


class Data:
    """Rows of features with their labels, sources, fold groups and the decision's inputs."""

    def __init__(self, frame, names):
        self.names = names
        self.features = frame[names].to_numpy(dtype=float)
        self.labels = frame["label"].to_numpy()
        self.sources = frame["source"].to_numpy()
        self.rates = frame["heartRate"].to_numpy(dtype=float)
        self.beats = frame["beatCount"].to_numpy()
        record = frame["name"].str.split("@").str[0]
        self.groups = np.where(self.sources == "cinc2017", frame["name"],
                               record.str.replace(r"^(data_\d+)_\d+$", r"\1", regex=True)).astype(str)

    def subset(self, rows):
        other = object.__new__(Data)
        for key, value in vars(self).items():
            setattr(other, key, value if key == "names" else value[rows])
        return other

    def training_weights(self, piece_weight):
        weights = np.zeros(len(self.labels))
        cinc = self.sources == "cinc2017"
        for label in CLASSES:
            rows = cinc & (self.labels == label)
            weights[rows] = cinc.sum() / (len(CLASSES) * max(rows.sum(), 1))
        for source in TRAINED_PIECES:
            rows = self.sources == source
            weights[rows] = piece_weight * PIECE_RECORDINGS / max(rows.sum(), 1)
        return weights

    def fit(self, setting):
        c, piece_weight = setting
        weights = self.training_weights(piece_weight)
        return Classifier(self, (weights > 0) & (self.beats >= MINIMUM_BEATS), weights, c)

    def predict(self, classifier):
        return classifier.decide(self.features, self.rates, self.beats)

    def folds(self):
        """Test rows of each fold: CinC stratified by label, pieces grouped by record or patient."""
        cinc = np.flatnonzero(self.sources == "cinc2017")
        assigned = np.empty(len(self.labels), dtype=int)
        splitter = StratifiedKFold(FOLDS, shuffle=True, random_state=SEED)
        for fold, (_, test) in enumerate(splitter.split(cinc, self.labels[cinc])):
            assigned[cinc[test]] = fold
        pieces = self.sources != "cinc2017"
        groups = sorted(set(self.groups[pieces]))
        order = np.random.default_rng(SEED).permutation(len(groups))
        fold_of = {groups[g]: k % FOLDS for k, g in enumerate(order)}
        for row in np.flatnonzero(pieces):
            assigned[row] = fold_of[self.groups[row]]
        return [np.flatnonzero(assigned == fold) for fold in range(FOLDS)]

    def objective(self, predicted):
        cinc = self.sources == "cinc2017"
        challenge = np.nanmean(list(f1_scores(self.labels[cinc], predicted[cinc]).values()))
        shares = [np.mean(predicted[self.sources == s] == self.labels[self.sources == s])
                  for s in TRAINED_PIECES if np.any(self.sources == s)]
        return (challenge + np.mean(shares)) / 2 if shares else challenge


def cross_validated(data, choose):
    """Each row's decision by a model fitted on the other folds, with the setting `choose` gives for them."""
    predicted = np.empty(len(data.labels), dtype=object)
    settings = []
    for test in data.folds():
        train = np.setdiff1d(np.arange(len(data.labels)), test)
        setting = choose(data.subset(train))
        settings.append(setting)
        predicted[test] = data.subset(test).predict(data.subset(train).fit(setting))
    return predicted, settings


def choose_setting(data):
    """The (C, piece weight) of the grid whose cross-validated decisions on `data` score best."""
    grid = [(c, w) for w in PIECE_WEIGHT_GRID for c in C_GRID]
    scores = [data.objective(cross_validated(data, lambda _, s=setting: s)[0]) for setting in grid]
    return grid[int(np.argmax(scores))]


def print_confusion(title, reference, predicted):
    print(title)
    print("reference \\ predicted " + "".join(f"{label:<5}" for label in CLASSES))
    for r in CLASSES:
        print(f"  {r}                   " + "".join(
            f"{np.sum((reference == r) & (predicted == p)):<5}" for p in CLASSES))
    f1 = f1_scores(reference, predicted)
    print("  ".join(f"F1 {label} {f1[label]:.3f}" for label in CLASSES))
    print(f"mean F1 over N, A, O: {(f1['N'] + f1['A'] + f1['O']) / 3:.3f}")


def print_results(title, data, predicted):
    cinc = data.sources == "cinc2017"
    print_confusion(f"{title}\nCinC 2017, {cinc.sum()} recordings", data.labels[cinc], predicted[cinc])
    print("30-s pieces: share given each label (N, A, O, ~)")
    for source in sorted(set(data.sources[~cinc])):
        rows = data.sources == source
        shares = "".join(f"{100 * np.mean(predicted[rows] == label):7.1f}%" for label in CLASSES)
        print(f"{source:<20}{rows.sum():5d} pieces {shares}")
def swift_array(values, indent):
    items = [repr(float(v)) for v in values]
    lines, line = [], indent
    for item in items:
        if len(line) + len(item) + 2 > 108:
            lines.append(line.rstrip())
            line = indent
        line += item + ", "
    lines.append(line.rstrip())
    return "[\n" + "\n".join(lines) + "\n" + indent[:-2] + "]"


def swift_model(model, names):
    rows = ",\n".join("        " + swift_array(row, "          ") for row in model.weights)
    listed = "\n".join('        "' + name + '",' for name in names)
    return f"""LogisticRegressionModel(
      featureNames: [
{listed}
      ],
      means: {swift_array(model.means, "        ")},
      scales: {swift_array(model.scales, "        ")},
      weights: [
{rows},
      ],
      intercepts: {swift_array(model.intercepts, "        ")})"""


def write_swift(path, classifier, names, setting):
    text = f"""// Generated by scripts/eval/fit_classifier.py (make fit-classify); do not edit.
// (C, piece weight) = {setting}, chosen by {FOLDS}-fold cross-validation (seed {SEED}).
extension ElectrocardiogramModel {{
  /// Classes: usable, poor reading.
  static let quality = {swift_model(classifier.quality, QUALITY_FEATURES)}

  /// Classes: N, A, O.
  static let rhythm = {swift_model(classifier.rhythm, names)}
}}
"""
    with open(path, "w") as file:
        file.write(text)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("features")
    parser.add_argument("--write")
    arguments = parser.parse_args()
    frame = pd.read_csv(arguments.features, keep_default_na=False, na_values=[""])
    names = [column for column in frame.columns if column not in META]
    data = Data(frame, names)

    predicted, settings = cross_validated(data, choose_setting)
    print_results(f"Cross-validated ({FOLDS} folds, seed {SEED}; (C, piece weight) chosen inside each"
                  f" training fold: {settings})", data, predicted)
    setting = choose_setting(data)
    model = data.fit(setting)
    print()
    print_results(f"All-data (fitted on every row; (C, piece weight) = {setting} chosen by {FOLDS}-fold CV on"
                  " all of them)", data, data.predict(model))
    if arguments.write:
        write_swift(arguments.write, model, names, setting)
        print(f"\nwrote {arguments.write}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
