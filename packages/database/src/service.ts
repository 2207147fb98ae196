/**
 * A service's public members. Classes with private members are nominal, so the same class
 * seen from this package's src and from its dist would clash in the Cradle augmentation;
 * their public shapes are identical and merge. Services also take their peers by this type.
 */
export type Service<T> = { [K in keyof T]: T[K] };
