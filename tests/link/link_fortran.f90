! Linked with libtileblas alone (no BLAS library): SGEMM on sub-arrays (leading dimension larger
! than the rows, first element inside the array), and DGEMM and DDOT, which tileblas forwards to the
! CPU BLAS, each checked against a loop here. The data are small integers, so every result is exact
! and compared with ==.
program link_fortran
  implicit none
  integer, parameter :: ld = 20, ncols = 16, m = 9, n = 6, k = 7, nx = 25
  real :: a(ld, ncols), b(ld, ncols), c(ld, ncols), c0(ld, ncols)
  double precision :: da(ld, ncols), db(ld, ncols), dc(ld, ncols), dc0(ld, ncols)
  double precision :: x(2 * nx), y(nx), want
  double precision, external :: ddot
  external :: sgemm, dgemm
  integer :: i, j, l, failures
  logical :: ok

  failures = 0
  do j = 1, ncols
    do i = 1, ld
      a(i, j) = real(mod(7 * i + 3 * j, 9) - 4)
      b(i, j) = real(mod(5 * i + 2 * j + 1, 9) - 4)
      c0(i, j) = real(mod(3 * i + 4 * j + 2, 9) - 4)
    end do
  end do
  da = dble(a)
  db = dble(b)
  dc0 = dble(c0)

  ! C(3:3+m-1, 2:2+n-1) = 2 * A(2:, 1:) * B(2:, 4:)**T - C(...), A m x k, B n x k.
  c = c0
  call sgemm('N', 'T', m, n, k, 2.0, a(2, 1), ld, b(2, 4), ld, -1.0, c(3, 2), ld)
  ok = .true.
  do j = 1, ncols
    do i = 1, ld
      if (i >= 3 .and. i < 3 + m .and. j >= 2 .and. j < 2 + n) then
        want = 0
        do l = 1, k
          want = want + da(i - 3 + 2, l) * db(j - 2 + 2, l + 3)
        end do
        ok = ok .and. dble(c(i, j)) == 2 * want - dc0(i, j)
      else
        ok = ok .and. c(i, j) == c0(i, j)
      end if
    end do
  end do
  call report(ok, 'SGEMM N,T on sub-arrays')

  ! C(2:, 5:) = -3 * A(4:, 2:)**T * B(1:, 3:) + 0.5 * C(...), A k x m, B k x n.
  dc = dc0
  call dgemm('T', 'N', m, n, k, -3d0, da(4, 2), ld, db(1, 3), ld, 0.5d0, dc(2, 5), ld)
  ok = .true.
  do j = 1, ncols
    do i = 1, ld
      if (i >= 2 .and. i < 2 + m .and. j >= 5 .and. j < 5 + n) then
        want = 0
        do l = 1, k
          want = want + da(l + 3, i - 2 + 2) * db(l, j - 5 + 3)
        end do
        ok = ok .and. dc(i, j) == -3 * want + 0.5d0 * dc0(i, j)
      else
        ok = ok .and. dc(i, j) == dc0(i, j)
      end if
    end do
  end do
  call report(ok, 'DGEMM T,N on sub-arrays')

  ! Increments 2 and -1: Y is walked from its last element.
  do i = 1, 2 * nx
    x(i) = dble(mod(7 * i, 9) - 4)
  end do
  do i = 1, nx
    y(i) = dble(mod(4 * i + 1, 9) - 4)
  end do
  want = 0
  do i = 1, nx
    want = want + x(1 + 2 * (i - 1)) * y(nx + 1 - i)
  end do
  call report(want /= 0 .and. ddot(nx, x, 2, y, -1) == want, 'DDOT with increments 2, -1')

  if (failures > 0) then
    print '(a, i0, a)', 'link_fortran: ', failures, ' checks FAILED'
    stop 1
  end if
  print '(a)', 'link_fortran: all checks passed'

contains

  subroutine report(passed, what)
    logical, intent(in) :: passed
    character(*), intent(in) :: what
    if (.not. passed) then
      print '(2a)', 'FAIL: ', what
      failures = failures + 1
    end if
  end subroutine report

end program link_fortran
